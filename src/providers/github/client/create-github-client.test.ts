import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../logging/logger.ts';
import { createGitHubClient } from './create-github-client.ts';

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('a GitHub API that cannot be reached', () => {
  it('fails the request at once with one line naming the address and what to check, without retries', async () => {
    const apiUrl = `http://127.0.0.1:${await closedPort()}`;
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
