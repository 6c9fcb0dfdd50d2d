import { join } from 'node:path';
import type { ProviderDescriptor } from '../provider-descriptor.ts';
import { checkLocalForDoctor } from './check-local-for-doctor.ts';
import { createLocalProvider } from './create-local-provider.ts';

const NAME = 'local';

/**
 * The local provider: work items in the SQLite tracker (`.flotilla/flotilla.db`), revisions as `flotilla/*`
 * branches of the repository, checks run here (`checks.command`). It has no config block of its own.
 */
export const localProvider: ProviderDescriptor<undefined> = {
  name: NAME,
  summary: 'the SQLite tracker in .flotilla/flotilla.db, revision branches and checks run here',
  tracksLocally: true,
  async create(context) {
    const provider = createLocalProvider({
      repoRoot: context.repoRoot,
      defaultBranch: context.defaultBranch,
      specsDir: context.specsDir,
      db: context.db,
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
  checkTracker: async (input) => [await checkLocalForDoctor.specs(input)],
  checkChecks: (input) => checkLocalForDoctor.checks(input),
};
