import { CliError } from './cli-error.ts';

/**
 * Wraps a command action: a CliError prints its message (prefixed `flotilla <command>:`) and details to
 * stderr and sets its exit code; any other error is a runtime failure (exit 1); success sets exit 0.
 */
export function runCliAction<Args extends unknown[]>(
  commandName: string,
  action: (...args: Args) => Promise<void> | void,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      await action(...args);
      process.exitCode = 0;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`flotilla ${commandName}: ${message}\n`);
      if (error instanceof CliError) {
        for (const line of error.details) process.stderr.write(`  ${line}\n`);
      }
      process.exitCode = error instanceof CliError ? error.exitCode : 1;
    }
  };
}
