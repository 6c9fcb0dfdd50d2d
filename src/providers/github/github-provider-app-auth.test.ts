import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubTestProvider } from '../../../test/support/github/create-github-test-provider.ts';
import { createRecordingLogger } from '../../logging/logger.ts';
import { omitUndefined } from '../../shared/omit-undefined.ts';
import { readGitHubCredentials } from './client/read-github-credentials.ts';

const APP = { id: 424242, slug: 'flotilla-app', installationId: 777 };
const rsa = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    // What GitHub hands out: a PKCS#1 PEM.
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
const keys = rsa();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(
  env: Record<string, string>,
  tokenLifetimeSeconds?: number,
  refreshBeforeExpiryMs?: number,
) {
  const logger = createRecordingLogger();
  const fixture = await createGitHubTestProvider(
    { app: { ...APP, publicKey: keys.publicKey, tokenLifetimeSeconds } },
    {
      env,
      logger,
      client: {
        quota: { writeIntervalMs: 0 },
        ...omitUndefined({ appTokenRefreshBeforeExpiryMs: refreshBeforeExpiryMs }),
      },
    },
  );
  cleanups.push(fixture.cleanup);
  const provider = fixture.provider;
  return { ...fixture, provider, logger };
}

const appEnv = (overrides: Record<string, string> = {}) => ({
  FLOTILLA_GITHUB_APP_ID: String(APP.id),
  FLOTILLA_GITHUB_APP_PRIVATE_KEY: keys.privateKey,
  FLOTILLA_GITHUB_APP_INSTALLATION_ID: String(APP.installationId),
  ...overrides,
});

describe('GitHub provider: GitHub App authentication', () => {
  it('works with an installation token made from a signed JWT; reviews are the App bot’s', async () => {
    const { github, provider, logger, scratch } = await setup(appEnv());
    const item = await provider.workItemWriter.createWorkItem({
      title: 'a',
      body: '',
      labels: [],
      blockedBy: [],
    });
    expect(await provider.workItemReader.listWorkItems()).toEqual([item]);
    expect(github.installationTokens).toHaveLength(1);
    const tokenRequests = github.requests.filter((request) => request.path.startsWith('/app/'));
    expect(tokenRequests.map((request) => [request.method, request.path, request.status])).toEqual([
      ['POST', `/app/installations/${APP.installationId}/access_tokens`, 201],
    ]);

    const keyFile = join(scratch, 'app.pem');
    await writeFile(keyFile, keys.privateKey);
    expect(
      readGitHubCredentials(
        appEnv({ FLOTILLA_GITHUB_APP_PRIVATE_KEY: '', FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE: keyFile }),
      ),
    ).toMatchObject({
      app: { appId: APP.id, installationId: APP.installationId, privateKey: keys.privateKey },
    });

    const revision = await provider.revisionWriter.createFromPatch({
      workItemID: item.id,
      patch:
        'diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+x\n',
      branchName: `flotilla/${item.id}`,
      title: 'a',
      body: '',
    });
    const reviewID = await provider.revisionWriter.postReview(revision.id, {
      verdict: 'approve',
      summary: 'ok',
      comments: [],
    });
    expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(reviewID);
    expect(github.login).toBe('flotilla-app[bot]');
    const logged = JSON.stringify(logger.records);
    for (const token of github.installationTokens) expect(logged).not.toContain(token.token);
  });

  it('replaces the installation token before it expires', async () => {
    const { github, provider } = await setup(appEnv(), 2, 1000);
    await provider.workItemReader.listWorkItems();
    expect(github.installationTokens).toHaveLength(1);
    await provider.workItemReader.listWorkItems();
    expect(github.installationTokens).toHaveLength(1); // reused while far from its expiry
    await new Promise((resolve) => setTimeout(resolve, 1100)); // within a second of it
    await provider.workItemReader.listWorkItems();
    expect(github.installationTokens).toHaveLength(2);
    expect(github.requests.filter((request) => request.status === 401)).toEqual([]);
  });

  it('errors name the variable and never carry the key', async () => {
    expect(() => readGitHubCredentials(appEnv({ FLOTILLA_GITHUB_APP_INSTALLATION_ID: '' }))).toThrow(
      /needs FLOTILLA_GITHUB_APP_INSTALLATION_ID/,
    );
    expect(() => readGitHubCredentials(appEnv({ FLOTILLA_GITHUB_APP_ID: 'my-app' }))).toThrow(
      /FLOTILLA_GITHUB_APP_ID must be the App's numeric id/,
    );
    expect(() =>
      readGitHubCredentials(
        appEnv({
          FLOTILLA_GITHUB_APP_PRIVATE_KEY: '',
          FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE: '/nonexistent/app.pem',
        }),
      ),
    ).toThrow(
      /cannot read the App's private key file named by FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE \(\/nonexistent\/app.pem\): ENOENT/,
    );
    expect(() => readGitHubCredentials(appEnv({ FLOTILLA_GITHUB_APP_PRIVATE_KEY: 'not a key' }))).toThrow(
      /FLOTILLA_GITHUB_APP_PRIVATE_KEY is not a PEM private key/,
    );

    const otherKey = rsa().privateKey;
    const wrongKey = await setup(appEnv({ FLOTILLA_GITHUB_APP_PRIVATE_KEY: otherKey }));
    const error = await wrongKey.provider.workItemReader.listWorkItems().catch((caught: unknown) => caught);
    expect(String(error)).toMatch(
      /GitHub rejected the App's JWT \(401\) .*check FLOTILLA_GITHUB_APP_ID \(424242\) and the private key in FLOTILLA_GITHUB_APP_PRIVATE_KEY/,
    );
    const everything = JSON.stringify([
      String(error),
      String((error as Error).cause),
      wrongKey.logger.records,
    ]);
    expect(everything).not.toContain(otherKey.split('\n')[1]);

    const wrongInstallation = await setup(appEnv({ FLOTILLA_GITHUB_APP_INSTALLATION_ID: '778' }));
    await expect(wrongInstallation.provider.workItemReader.listWorkItems()).rejects.toThrow(
      /no installation 778 of App 424242 \(404\).*check FLOTILLA_GITHUB_APP_INSTALLATION_ID/,
    );
  });
});
