import { join } from 'node:path';
import type { ProviderDescriptor } from '../provider-descriptor.ts';

const NAME = 'local';

/**
 * The local provider: work items in the tracker (`.flotilla/flotilla.db`; in cluster mode the cluster's
 * PostgreSQL), revisions as `flotilla/*` branches of the repository, checks run here (`checks.command`). It
 * has no config block of its own.
 */
export const localProvider: ProviderDescriptor<undefined> = {
  name: NAME,
  summary: 'the SQLite tracker in .flotilla/flotilla.db, revision branches and checks run here',
  tracksLocally: true,
  // Loaded on use: the CLI builds its commands from the registry (`init`'s flags) before any provider runs.
  async create(context) {
    const { createLocalProvider } = await import('./create-local-provider.ts');
    const provider = createLocalProvider({
      repoRoot: context.repoRoot,
      defaultBranch: context.defaultBranch,
      specsDir: context.specsDir,
      db: context.db,
      ...(context.trackerState !== undefined && { trackerState: context.trackerState }),
      ...(context.sharedRemote !== undefined && { sharedRemote: context.sharedRemote }),
      checksCommand: context.checks.command,
      checksTimeoutMs: context.checks.timeout * 1000,
      logsDir: join(context.logsDir, 'checks'),
      logger: context.logger,
      ...(context.mergeMethod !== undefined && { mergeMethod: context.mergeMethod }),
    });
    return Object.assign(provider, {
      name: NAME,
      localTracker: provider.tracker,
      ...(context.mergeMethod !== undefined && { mergeMethod: context.mergeMethod }),
    });
  },
  async checkTracker(input) {
    const { checkLocalForDoctor } = await import('./check-local-for-doctor.ts');
    return [await checkLocalForDoctor.specs(input)];
  },
  async checkChecks(input) {
    const { checkLocalForDoctor } = await import('./check-local-for-doctor.ts');
    return checkLocalForDoctor.checks(input);
  },
};
