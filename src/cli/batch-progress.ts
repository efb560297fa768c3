/**
 * The one-line progress of a batch for people: a bar, done/total, counts by state, amount paid, rate
 * and time left; and the line of an item that failed. Pure (time and width come in as arguments) so
 * that it is tested without a terminal. Text that others wrote (a provider's reason) is printed only
 * through `printable`, so it cannot drive the terminal or reorder the line.
 */
import { formatCentavos, reaisToCentavos } from '../money/centavos';
import { printable } from '../validation/plain-text';
import type { BatchItemResponse, BatchSummaryResponse } from '../api/batches/schemas';
import type { ItemState } from '../batches/batch-store';

export interface ProgressOptions {
  /** Epoch ms of the moment shown. */
  now: number;
  /** Epoch ms from which the rate is measured: the batch's startedAt, or when watching began. */
  startedAt?: number;
  /** Columns available; the line never exceeds it (a wrapped line breaks a carriage-return redraw). */
  width: number;
  /** Epoch ms when the settled count last moved (the watcher tracks it): past STALLED_AFTER_MS without a move, the line says what it waits for instead of a time left. */
  lastSettledAt?: number;
}

/** Nothing settled for this long: a time left computed from the average rate would only keep counting down. */
export const STALLED_AFTER_MS = 15_000;

// Order of the counts on the line, with the words people read.
const STATE_LABELS: readonly [ItemState, string][] = [
  ['COMPLETED', 'completed'],
  ['FAILED', 'failed'],
  ['NEEDS_REVIEW', 'review'],
  ['CANCELLED', 'cancelled'],
  ['STARTED', 'in flight'],
  ['PENDING', 'pending'],
];
const MIN_BAR = 10;
const MAX_BAR = 30;

/** Items in a state from which they do not start again: everything but PENDING and STARTED. */
export function settledCount(summary: BatchSummaryResponse): number {
  return summary.total - summary.counts.PENDING.count - summary.counts.STARTED.count;
}

export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function formatReais(reais: number): string {
  return `R$ ${formatCentavos(reaisToCentavos(reais))}`;
}

function bar(fraction: number, width: number): string {
  const filled = Math.min(width, Math.floor(fraction * width));
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

export function renderProgress(summary: BatchSummaryResponse, options: ProgressOptions): string {
  const settled = settledCount(summary);
  const fraction = summary.total === 0 ? 1 : settled / summary.total;
  const percent = Math.floor(fraction * 100);
  const counts = STATE_LABELS.filter(([state]) => state === 'COMPLETED' || summary.counts[state].count > 0)
    .map(([state, label]) => `${label} ${summary.counts[state].count}`)
    .join(' · ');

  const end = summary.done && summary.finishedAt ? Date.parse(summary.finishedAt) : options.now;
  const elapsedSeconds = options.startedAt === undefined ? 0 : (end - options.startedAt) / 1_000;
  const rate = elapsedSeconds > 0 ? settled / elapsedSeconds : 0;
  const rateText = elapsedSeconds > 0 ? `${rate.toFixed(1)}/s` : '–/s';
  let timeText: string;
  if (summary.done) timeText = elapsedSeconds > 0 ? `done in ${formatDuration(elapsedSeconds)}` : 'done';
  else if (summary.control === 'PAUSED') timeText = 'paused';
  else if (summary.problem)
    timeText = `waiting: ${summary.problem.activity} keeps failing since ${summary.problem.since}: ${printable(summary.problem.message)}`;
  else if (options.lastSettledAt !== undefined && options.now - options.lastSettledAt >= STALLED_AFTER_MS)
    timeText = waitingFor(summary, (options.now - options.lastSettledAt) / 1_000);
  else if (rate > 0) timeText = `${formatDuration((summary.total - settled) / rate)} left`;
  else timeText = 'time left unknown';

  const text = [
    `${settled}/${summary.total} ${percent}%`,
    counts,
    `paid ${formatReais(summary.paidAmount)} of ${formatReais(summary.totalAmount)}`,
    rateText,
    timeText,
  ].join(' | ');
  const barWidth = Math.max(MIN_BAR, Math.min(MAX_BAR, options.width - text.length - 3));
  const line = `${bar(fraction, barWidth)} ${text}`;
  return line.length <= options.width ? line : `${line.slice(0, Math.max(0, options.width - 1))}…`;
}

/** What a batch that stopped moving waits for: its payouts at the provider, or the next ones to start. */
function waitingFor(summary: BatchSummaryResponse, stalledSeconds: number): string {
  const inFlight = summary.counts.STARTED.count;
  const what =
    inFlight > 0 ? `the provider on ${inFlight} payout${inFlight === 1 ? '' : 's'}` : 'the next payouts to start';
  return `waiting for ${what} (nothing settled for ${formatDuration(stalledSeconds)})`;
}

/** `  FAILED       order-17                R$ 7.13  Recipient account closed` */
export function renderFailure(item: BatchItemResponse): string {
  return `  ${item.status.padEnd(12)} ${printable(item.externalId).padEnd(24)} ${formatReais(item.amount).padStart(16)}  ${printable(item.failureReason ?? '')}`.trimEnd();
}
