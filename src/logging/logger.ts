export type LogFields = Record<string, unknown>;

/** Structured logger the engine and adapters write to (pino in the CLI, a recorder in tests). */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields;
}

/** A logger that keeps every record in memory; for tests and for buffering before a sink exists. */
export function createRecordingLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const write =
    (level: LogRecord['level']) =>
    (message: string, fields: LogFields = {}) => {
      records.push({ level, message, fields });
    };
  return { records, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
