/**
 * One JSON line per event on stdout. Callers pass identifiers and states, never card data, PIX keys,
 * documents or secrets: `redact` below is the safety net, not the policy.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

const SECRET_FIELD = /(secret|token|password|authorization|number|ccv|cvv|pix_?key|document|cpf|signature)/i;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_FIELD.test(key)) out[key] = '[redacted]';
    else if (value instanceof Error) out[key] = { name: value.name, message: value.message };
    else out[key] = value;
  }
  return out;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(
  bindings: LogFields = {},
  minLevel: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info',
  write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): Logger {
  const emit = (level: LogLevel, event: string, fields: LogFields = {}): void => {
    if (LEVELS[level] < (LEVELS[minLevel] ?? LEVELS.info)) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, event, ...redact({ ...bindings, ...fields }) }));
  };
  return {
    debug: (event, fields) => emit('debug', event, fields),
    info: (event, fields) => emit('info', event, fields),
    warn: (event, fields) => emit('warn', event, fields),
    error: (event, fields) => emit('error', event, fields),
    child: (fields) => createLogger({ ...bindings, ...fields }, minLevel, write),
  };
}
