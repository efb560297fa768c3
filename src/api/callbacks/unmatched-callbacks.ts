/**
 * Callbacks that name no payout we know are acknowledged (so the provider stops retrying) and kept
 * here, one JSON line each under DATA_DIR, where an operator can find them (GET /v1/callbacks/unmatched).
 *
 * Bounded and private: one line per provider event (`X-Service-Webhook-Id`; retries of an event are
 * not kept again), only the fields the route's schema declares (the callback router strips the rest,
 * which may be personal data), at most `maxEntries` lines (past that the oldest are dropped and counted
 * in a `{"dropped": n}` line at the top), the file readable by its owner only (0600). A line cut short by
 * a crash is skipped when read and never glued to the next one.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const FILE_MODE = 0o600;

export const unmatchedCallbackSchema = z.object({
  receivedAt: z.string(),
  route: z.string(),
  eventId: z.string().optional(),
  reference: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type UnmatchedCallback = z.infer<typeof unmatchedCallbackSchema>;

const droppedLineSchema = z.object({ dropped: z.number().int().min(0) });

/** GET /v1/callbacks/unmatched. */
export const unmatchedCallbacksResponseSchema = z.object({
  /** Oldest first. */
  data: z.array(unmatchedCallbackSchema),
  /** Callbacks dropped so far to keep the store within UNMATCHED_CALLBACKS_MAX. */
  dropped: z.number().int().min(0),
  /** Lines that could not be read (cut short by a crash), skipped. */
  unreadable: z.number().int().min(0),
});
export type UnmatchedCallbacksResponse = z.infer<typeof unmatchedCallbacksResponseSchema>;

interface StoreContents {
  entries: UnmatchedCallback[];
  dropped: number;
  unreadable: number;
  /** The file's last line is complete (or the file is empty). */
  endsCleanly: boolean;
}

function parseLine(line: string): UnmatchedCallback | { dropped: number } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  const entry = unmatchedCallbackSchema.safeParse(json);
  if (entry.success) return entry.data;
  const dropped = droppedLineSchema.safeParse(json);
  return dropped.success ? dropped.data : undefined;
}

export class UnmatchedCallbackStore {
  private readonly file: string;

  constructor(
    dataDir: string,
    private readonly maxEntries: number,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.file = path.join(dataDir, 'unmatched-callbacks.jsonl');
    // A file left by an older version may be world-readable.
    if (existsSync(this.file)) chmodSync(this.file, FILE_MODE);
  }

  /** Keeps the callback; false when its event was kept before (a retry of the same event). */
  add(callback: UnmatchedCallback): boolean {
    const contents = this.read();
    if (callback.eventId !== undefined && contents.entries.some((entry) => entry.eventId === callback.eventId && entry.route === callback.route)) return false;
    if (contents.entries.length < this.maxEntries) {
      // A line cut short by a crash gets its own line ending, so it cannot spoil this one.
      appendFileSync(this.file, `${contents.endsCleanly ? '' : '\n'}${JSON.stringify(callback)}\n`, { mode: FILE_MODE });
      return true;
    }
    const kept = [...contents.entries, callback].slice(-this.maxEntries);
    const dropped = contents.dropped + contents.entries.length + 1 - kept.length;
    const lines = [JSON.stringify({ dropped }), ...kept.map((entry) => JSON.stringify(entry))];
    // Written aside and renamed over: a crash leaves the old file or the new one, never half of each.
    const next = `${this.file}.${process.pid}.tmp`;
    writeFileSync(next, lines.join('\n') + '\n', { mode: FILE_MODE });
    renameSync(next, this.file);
    return true;
  }

  list(limit = 100): UnmatchedCallbacksResponse {
    const { entries, dropped, unreadable } = this.read();
    return { data: entries.slice(-limit), dropped, unreadable };
  }

  private read(): StoreContents {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], dropped: 0, unreadable: 0, endsCleanly: true };
      throw error;
    }
    const contents: StoreContents = { entries: [], dropped: 0, unreadable: 0, endsCleanly: text.length === 0 || text.endsWith('\n') };
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      const parsed = parseLine(line);
      if (parsed === undefined) contents.unreadable += 1;
      else if ('dropped' in parsed) contents.dropped = parsed.dropped;
      else contents.entries.push(parsed);
    }
    return contents;
  }
}
