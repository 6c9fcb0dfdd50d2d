import { join } from 'node:path';
import {
  CONTRACT_BASE_FILES,
  describeProviderContract,
} from '../../../test/support/provider-contract/provider-contract-suite.ts';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { createTempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { silentLogger } from '../../logging/logger.ts';
import { createLocalProvider } from './create-local-provider.ts';

const CHECKS_COMMANDS = {
  none: null,
  passing: 'node -e "process.exit(0)"',
  failing: 'node -e "console.error(\'1 test failed\'); process.exit(1)"',
} as const;

describeProviderContract(
  'local (real git, real SQLite)',
  async ({ checks }) => {
    const repo = await createTempGitRepo();
    await repo.commit('initial', { ...CONTRACT_BASE_FILES });
    const dir = createTempDir('flotilla-local-contract-');
    const provider = createLocalProvider({
      repoRoot: repo.root,
      defaultBranch: 'main',
      specsDir: 'docs/specs',
      dbPath: join(dir.path, 'flotilla.db'),
      checksCommand: CHECKS_COMMANDS[checks],
      checksTimeoutMs: 30_000,
      logsDir: join(dir.path, 'logs'),
      logger: silentLogger,
    });
    const { workItems, revisions } = provider.tracker;
    return {
      provider,
      control: {
        engineAuthor: 'flotilla',
        async addSpec({ filePath, content }) {
          await repo.commit(`spec ${filePath}`, { [filePath]: content });
        },
        async addBrokenSpec({ filePath, content }) {
          await repo.commit(`broken spec ${filePath}`, { [filePath]: content });
        },
        async humanCloseWorkItem(id) {
          workItems.closeWorkItem(id);
        },
        workItemComments: async (id) => workItems.getWorkItemComments(id).map((comment) => comment.body),
        revisionComments: async (id) => revisions.listComments(id).map((comment) => comment.body),
        settleChecks: () => provider.runPendingChecks(),
        async cleanup() {
          await provider.runPendingChecks();
          await provider.close();
          await repo.cleanup();
          dir.remove();
        },
      },
    };
  },
  { localAdmin: true, history: true },
);
