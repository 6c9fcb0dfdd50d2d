/** Exit codes of the CLI contract (docs/architecture.md §CLI): 1 runtime failure, 2 usage or validation error. */
export type CliExitCode = 1 | 2;

/**
 * An error the CLI reports as-is: `message` (one line, saying what to do) then each of `details` on its own
 * line, and the process exits with `exitCode`. Anything else thrown by a command is a runtime failure (1).
 */
export class CliError extends Error {
  readonly exitCode: CliExitCode;
  readonly details: readonly string[];

  constructor(message: string, options: { exitCode: CliExitCode; details?: readonly string[] }) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode;
    this.details = options.details ?? [];
  }
}
