/**
 * Callbacks that name no payout we know are acknowledged (so the provider stops retrying) and kept
 * here, one JSON line each under DATA_DIR, where an operator can find them (GET /v1/callbacks/unmatched).
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface UnmatchedCallback {
  receivedAt: string;
  route: string;
  eventId?: string;
  reference: string;
  payload: unknown;
}

export class UnmatchedCallbackStore {
  private readonly file: string;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.file = path.join(dataDir, 'unmatched-callbacks.jsonl');
  }

  add(callback: UnmatchedCallback): void {
    appendFileSync(this.file, JSON.stringify(callback) + '\n');
  }

  list(limit = 100): UnmatchedCallback[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const lines = text.split('\n').filter((line) => line.length > 0);
    return lines.slice(-limit).map((line) => JSON.parse(line) as UnmatchedCallback);
  }
}
