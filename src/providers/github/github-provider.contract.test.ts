import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONTRACT_BASE_FILES,
  describeProviderContract,
} from '../../../test/support/provider-contract/provider-contract-suite.ts';
import { createFakeGitHub } from '../../demo/fake-github/create-fake-github.ts';
import { silentLogger } from '../../logging/logger.ts';
import { createGitHubProvider } from './create-github-provider.ts';

const TOKEN = 'ghp_contract_test_token';

describeProviderContract(
  'github (HTTP to the fake GitHub on 127.0.0.1, real git behind it)',
  async ({ checks }) => {
    const github = await createFakeGitHub({ token: TOKEN, baseFiles: CONTRACT_BASE_FILES, ci: checks });
    const scratch = await mkdtemp(join(tmpdir(), 'flotilla-github-contract-'));
    const provider = createGitHubProvider({
      owner: github.owner,
      repo: github.repo,
      apiUrl: github.apiUrl,
      gitUrl: github.gitUrl,
      scratchDir: scratch,
      specsDir: 'docs/specs',
      // The contract's "no checks configured" means green at once.
      noChecksGraceSeconds: 0,
      env: { GITHUB_TOKEN: TOKEN },
      logger: silentLogger,
      // Write spacing (1/s by default) is the quota manager's, tested there with a clock; here it only slows.
      client: { quota: { writeIntervalMs: 0 } },
    });
    return {
      provider,
      control: {
        engineAuthor: github.login,
        async addSpec({ filePath, content }) {
          await github.human.commitFiles({ [filePath]: content }, `spec ${filePath}`);
        },
        async addBrokenSpec({ filePath, content }) {
          await github.human.commitFiles({ [filePath]: content }, `broken spec ${filePath}`);
        },
        async humanCloseWorkItem(id) {
          github.human.closeIssue(Number(id));
        },
        workItemComments: async (id) => github.issueComments(Number(id)),
        revisionComments: async (id) => github.issueComments(Number(id)),
        settleChecks: () => github.settleChecks(),
        async cleanup() {
          await github.close();
          await rm(scratch, { recursive: true, force: true });
        },
      },
    };
  },
  { localAdmin: false, history: true },
);
