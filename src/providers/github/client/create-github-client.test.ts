import { describe, expect, it } from 'vitest';
import { findFreePort } from '../../../../test/support/shared/find-free-port.ts';
import { silentLogger } from '../../../logging/logger.ts';
import { createGitHubClient } from './create-github-client.ts';

describe('a GitHub API that cannot be reached', () => {
  it('fails the request at once with one line naming the address and what to check, without retries', async () => {
    const apiUrl = `http://127.0.0.1:${await findFreePort()}`;
    const client = createGitHubClient({
      token: { value: 'test-token', variable: 'GITHUB_TOKEN' },
      apiUrl,
      logger: silentLogger,
    });
    await expect(client.octokit.rest.repos.get({ owner: 'acme', repo: 'widgets' })).rejects.toThrow(
      `cannot reach GitHub at ${apiUrl} (ECONNREFUSED): check the network connection, and github.apiUrl in flotilla.config.json`,
    );
    // One attempt: the retry plugin's back-off (1 + 4 + 9 s) is not spent on a connection nobody answers.
    expect(client.circuit.snapshot().consecutiveFailures).toBe(1);
  });
});
