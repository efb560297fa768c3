/**
 * One JSON line per event (pino), each with an `event` name, the process's bindings (`service`), the
 * request id of the work in progress (request-context.ts) and the caller's fields. Callers pass
 * identifiers and states, never card data, PIX keys, documents or secrets: redaction.ts is the safety
 * net, not the policy.
 */
import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { scrub } from './redaction';
import { currentRequestId } from './request-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const pinoLoggers = new WeakMap<Logger, PinoLogger>();

/** The pino logger under one of ours (pino-http logs through it); undefined for a logger made elsewhere. */
export function pinoOf(logger: Logger): PinoLogger | undefined {
  return pinoLoggers.get(logger);
}

function wrap(base: PinoLogger): Logger {
  const emit =
    (level: LogLevel) =>
    (event: string, fields: LogFields = {}): void => {
      if (base.isLevelEnabled(level)) base[level]({ event, ...fields });
    };
  const logger: Logger = {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    // Bindings skip pino's formatters and redaction: scrubbed here.
    child: (fields) => wrap(base.child(scrub(fields) as LogFields)),
  };
  pinoLoggers.set(logger, base);
  return logger;
}

/**
 * The trace's ids as the mixin put them, left out of redaction: a span id is hex, and one with a run of
 * eleven digits looks like a CPF to the text patterns, which would break the link from a trace to its lines.
 */
function traceIds(traceId: unknown, spanId: unknown): { trace_id?: string; span_id?: string } {
  return typeof traceId === 'string' &&
    typeof spanId === 'string' &&
    /^[0-9a-f]{32}$/.test(traceId) &&
    /^[0-9a-f]{16}$/.test(spanId)
    ? { trace_id: traceId, span_id: spanId }
    : {};
}

export function createLogger(
  bindings: LogFields = {},
  minLevel: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info',
  write?: (line: string) => void,
): Logger {
  // Synchronous stdout: a line written just before the process exits is not lost.
  const destination: DestinationStream = write
    ? { write: (line) => write(line.replace(/\n$/, '')) }
    : pino.destination({ dest: 1, sync: true });
  const base = pino(
    {
      level: minLevel,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: ({ trace_id, span_id, ...fields }) => ({
          ...(scrub(fields) as Record<string, unknown>),
          ...traceIds(trace_id, span_id),
        }),
      },
      mixin: () => {
        const requestId = currentRequestId();
        // The span at work (tracing on: src/telemetry/tracing.ts), so that a trace leads to its lines and back.
        const span = trace.getActiveSpan()?.spanContext();
        return {
          ...(requestId === undefined ? {} : { requestId }),
          ...(span && trace.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {}),
        };
      },
    },
    destination,
  );
  return wrap(base.child(scrub(bindings) as LogFields));
}
