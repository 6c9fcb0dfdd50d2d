import { messageOf } from '../../shared/message-of.ts';
import { CliError } from './cli-error.ts';

/**
 * Wraps a command action: a CliError prints its message (prefixed `flotilla <command>:`) and details to
 * stderr and sets its exit code; any other error is a runtime failure (exit 1); success sets exit 0, or the
 * code the action returns (a result-bearing code such as `flotilla checks`' 8 for pending checks).
 */
export function runCliAction<Args extends unknown[]>(
  commandName: string,
  /** Resolves to nothing, or to the exit code when the result decides it. */
  action: (...args: Args) => unknown,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      const code = await action(...args);
      process.exitCode = typeof code === 'number' ? code : 0;
    } catch (error) {
      const message = messageOf(error);
      process.stderr.write(`flotilla ${commandName}: ${message}\n`);
      if (error instanceof CliError) {
        for (const line of error.details) process.stderr.write(`  ${line}\n`);
      }
      process.exitCode = error instanceof CliError ? error.exitCode : 1;
    }
  };
}
