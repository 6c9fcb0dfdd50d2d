import type { SqliteTracker } from '../../storage/index.ts';
import type { CliContext } from './open-cli-context.ts';

/**
 * The configured provider's local tracker (its `localTracker` capability: `.flotilla/flotilla.db`, in cluster
 * mode the cluster's PostgreSQL), or undefined when its items live elsewhere — then the command goes through
 * the provider contract (src/cli/support/contract-tracker-commands.ts). A provider without one is not created
 * here.
 */
export async function openLocalTracker(context: CliContext): Promise<SqliteTracker | undefined> {
  if (!context.provider.tracksLocally) return undefined;
  const tracker = (await context.provider.open()).localTracker;
  if (tracker === undefined) {
    throw new Error(`provider ${context.provider.name} says it tracks locally but has no local tracker`);
  }
  return tracker;
}
