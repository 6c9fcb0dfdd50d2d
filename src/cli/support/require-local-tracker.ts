import type { SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import type { CliContext } from './open-cli-context.ts';
import { openLocalTracker } from './open-local-tracker.ts';

/**
 * The local tracker for a command only it supports (the provider's own refusal, when it has one, comes
 * first); a provider without one: a usage error naming it (exit 2).
 */
export async function requireLocalTracker(context: CliContext, command: string): Promise<SqliteTracker> {
  const tracker = await openLocalTracker(context);
  if (tracker === undefined) {
    throw new CliError(
      `flotilla ${command} reads the local tracker; provider ${context.provider.name} has none`,
      { exitCode: 2 },
    );
  }
  return tracker;
}
