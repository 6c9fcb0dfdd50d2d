import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import type { LogFields, Logger } from './logger.ts';

/**
 * A structured logger writing JSON lines to a file (never to the terminal, so progress output and the
 * dashboard are never interleaved with logs). `close()` flushes.
 */
export function createFileLogger(options: {
  path: string;
  level: 'debug' | 'info' | 'warn' | 'error';
}): Logger & { close(): void } {
  mkdirSync(dirname(options.path), { recursive: true });
  const destination = pino.destination({ dest: options.path, sync: true, mkdir: true });
  const log = pino({ level: options.level, base: null }, destination);
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields: LogFields = {}) =>
      log[level](fields, message);
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    close: () => destination.flushSync(),
  };
}
