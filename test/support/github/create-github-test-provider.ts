import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions,
} from '../../../src/demo/fake-github/create-fake-github.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import {
  createGitHubProvider,
  type GitHubProviderOptions,
} from '../../../src/providers/github/create-github-provider.ts';

export const TEST_TOKEN = 'ghp_github_provider_test_token';

/**
 * A fake GitHub and a provider talking to it (test support): writes unspaced, 5xx retries short, the
 * no-checks grace zero. `cleanup` closes the fake and removes the scratch directory.
 */
export async function createGitHubTestProvider(
  fakeOptions: Omit<FakeGitHubOptions, 'token'> = {},
  providerOptions: Partial<GitHubProviderOptions> = {},
) {
  const github: FakeGitHub = await createFakeGitHub({ token: TEST_TOKEN, ...fakeOptions });
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-github-test-'));
  const provider = createGitHubProvider({
    owner: github.owner,
    repo: github.repo,
    apiUrl: github.apiUrl,
    gitUrl: github.gitUrl,
    scratchDir: scratch,
    specsDir: 'docs/specs',
    noChecksGraceSeconds: 0,
    env: { GITHUB_TOKEN: TEST_TOKEN },
    logger: silentLogger,
    client: { quota: { writeIntervalMs: 0 }, serverErrorRetry: { baseDelayMs: 10 } },
    ...providerOptions,
  });
  return {
    github,
    provider,
    scratch,
    async cleanup() {
      await github.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
