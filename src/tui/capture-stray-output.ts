import { format } from 'node:util';
import type { Logger } from '../logging/logger.ts';

const CONSOLE_LEVELS = {
  debug: 'debug',
  log: 'info',
  info: 'info',
  warn: 'warn',
  error: 'error',
} as const satisfies Record<string, keyof Logger>;

/**
 * While the dashboard owns the screen, anything else that would print — console calls, direct stderr
 * writes, Node's process warnings — goes to the log file instead, so no library can break the layout.
 * Returns a function that puts everything back.
 */
export function captureStrayOutput(logger: Logger): () => void {
  const originalConsole = new Map<keyof typeof CONSOLE_LEVELS, (...args: unknown[]) => void>();
  for (const [method, level] of Object.entries(CONSOLE_LEVELS) as [
    keyof typeof CONSOLE_LEVELS,
    keyof Logger,
  ][]) {
    originalConsole.set(method, console[method]);
    console[method] = (...args: unknown[]) => logger[level](`console.${method}: ${format(...args)}`);
  }
  const originalStderrWrite = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logger.warn(
      `stderr: ${typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')}`.trimEnd(),
    );
    const callback = rest.find((value): value is () => void => typeof value === 'function');
    callback?.();
    return true;
  }) as typeof process.stderr.write;
  const warningListeners = process.listeners('warning');
  process.removeAllListeners('warning');
  const onWarning = (warning: Error) => logger.warn(`process warning: ${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);

  return () => {
    for (const [method, original] of originalConsole) console[method] = original;
    process.stderr.write = originalStderrWrite;
    process.off('warning', onWarning);
    for (const listener of warningListeners) process.on('warning', listener);
  };
}
