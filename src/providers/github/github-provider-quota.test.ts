import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHub, type FakeGitHub } from '../../demo/fake-github/create-fake-github.ts';
import { createRecordingLogger, type Logger } from '../../logging/logger.ts';
import { omitUndefined } from '../../shared/omit-undefined.ts';
import type { GitHubClientOptions } from './client/create-github-client.ts';
import { readGitHubToken } from './client/read-github-token.ts';
import { createGitHubProvider, type GitHubProvider } from './create-github-provider.ts';

const TOKEN = 'ghp_quota_test_token_0123456789';
const SPEC = '---\nstatus: approved\n---\n\n# API\n';

const fakes: FakeGitHub[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

async function setup(
  options: {
    env?: Record<string, string>;
    logger?: Logger;
    client?: GitHubClientOptions['quota'];
    retries?: number;
    circuitBreaker?: GitHubClientOptions['circuitBreaker'];
  } = {},
) {
  const github = await createFakeGitHub({ token: TOKEN });
  fakes.push(github);
  const provider = createGitHubProvider({
    owner: github.owner,
    repo: github.repo,
    apiUrl: github.apiUrl,
    specsDir: 'docs/specs',
    // No revision is created here, so the patch mirror under it is never made.
    scratchDir: tmpdir(),
    env: options.env ?? { FLOTILLA_GITHUB_TOKEN: TOKEN },
    logger: options.logger ?? createRecordingLogger(),
    client: {
      quota: { writeIntervalMs: 0, ...options.client },
      serverErrorRetry: { baseDelayMs: 10, retries: options.retries },
      ...omitUndefined({ circuitBreaker: options.circuitBreaker }),
    },
  });
  return { github, provider };
}

/** What the engine's pollers ask each interval: open work items, then specs. */
async function poll(provider: GitHubProvider) {
  const items = await provider.workItemReader.listWorkItems();
  const specs = await provider.specReader.listSpecs();
  return { items, specs };
}

/** The requests the fake saw from `from` on, and the primary (REST `core`) points they cost. */
function spent(github: FakeGitHub, from: number) {
  const requests = github.requests.slice(from);
  return {
    requests: requests.length,
    points: requests.filter((request) => request.counted && request.resource === 'core').length,
    notModified: requests.filter((request) => request.status === 304).length,
  };
}

describe('GitHub provider: quota', () => {
  it('an idle poll costs no primary quota: every read is a conditional request answered 304', async () => {
    const { github, provider } = await setup();
    await github.human.commitFiles({ 'docs/specs/api.md': SPEC });
    for (const title of ['a', 'b', 'c']) {
      await provider.workItemWriter.createWorkItem({ title, body: '', labels: [], blockedBy: [] });
    }
    let mark = github.requests.length;
    const first = await poll(provider);
    expect(first.items.map((item) => item.title)).toEqual(['a', 'b', 'c']);
    expect(first.specs.specs.map((spec) => spec.filePath)).toEqual(['docs/specs/api.md']);
    // Issues page, open pull requests (links), repository (default branch, once), ref, tree, one blob.
    expect(spent(github, mark)).toEqual({ requests: 6, points: 6, notModified: 0 });

    mark = github.requests.length;
    const remainingBefore = provider.quota().core?.remaining;
    expect(await poll(provider)).toEqual(first);
    expect(spent(github, mark)).toEqual({ requests: 3, points: 0, notModified: 3 });
    expect(provider.quota().core?.remaining).toBe(remainingBefore);
    expect(provider.quota().notModified).toBe(3);

    // A change is seen at once: the next poll pays for what changed only.
    github.human.setIssueLabels(2, ['task:implement', 'status:ready']);
    mark = github.requests.length;
    expect((await poll(provider)).items.map((item) => item.status)).toEqual(['pending', 'ready', 'pending']);
    expect(spent(github, mark)).toEqual({ requests: 3, points: 1, notModified: 2 });
  });

  it('a revision poll is one GraphQL request whatever the number of pull requests, and no REST quota', async () => {
    const { github, provider } = await setup();
    for (const index of [1, 2, 3]) {
      await github.human.openPullRequest({
        branch: `feature-${index}`,
        files: { [`f${index}.txt`]: 'x\n' },
        title: `PR ${index}`,
      });
    }
    const mark = github.requests.length;
    const revisions = await provider.revisionReader.listRevisions();
    expect(revisions.map((revision) => revision.title)).toEqual(['PR 1', 'PR 2', 'PR 3']);
    expect(github.requests.slice(mark)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/graphql', resource: 'graphql', counted: true }),
    ]);
    // The same revisions as the per-pull-request REST reads give.
    for (const revision of revisions) {
      expect(await provider.revisionReader.getRevision(revision.id)).toEqual(revision);
    }
  });

  it('pages the GraphQL query by 50 pull requests', async () => {
    const { github, provider } = await setup();
    for (let index = 1; index <= 51; index++) {
      await github.human.openPullRequest({
        branch: `b-${index}`,
        files: { 'f.txt': `${index}\n` },
        title: `PR ${index}`,
      });
    }
    const mark = github.requests.length;
    const revisions = await provider.revisionReader.listRevisions();
    expect(revisions).toHaveLength(51);
    expect(revisions.at(-1)?.title).toBe('PR 51');
    expect(github.requests.slice(mark).map((request) => request.path)).toEqual(['/graphql', '/graphql']);
  });

  it('follows Link pagination past 100 issues, and an idle re-poll of every page is free', async () => {
    const { github, provider } = await setup();
    for (let index = 1; index <= 130; index++) {
      github.human.createIssue({ title: `item ${index}`, labels: ['task:implement'] });
    }
    github.human.createIssue({ title: 'not a work item', labels: ['bug'] });
    let mark = github.requests.length;
    const items = await provider.workItemReader.listWorkItems();
    expect(items).toHaveLength(130);
    expect(items.at(-1)?.title).toBe('item 130');
    const issuePages = github.requests.slice(mark).filter((request) => request.path.includes('/issues'));
    expect(issuePages.map((request) => request.path)).toEqual([
      '/repos/acme/widgets/issues?state=open&sort=created&direction=asc&per_page=100',
      '/repos/acme/widgets/issues?state=open&sort=created&direction=asc&per_page=100&page=2',
    ]);
    mark = github.requests.length;
    expect(await provider.workItemReader.listWorkItems()).toEqual(items);
    // Both issue pages and the open pull requests.
    expect(spent(github, mark)).toEqual({ requests: 3, points: 0, notModified: 3 });
  });

  it('waits out a secondary rate limit’s retry-after, then retries, and every caller pauses', async () => {
    const { github, provider } = await setup();
    github.injectFault({ kind: 'secondary-rate-limit', retryAfterSeconds: 1 }, { path: /\/issues\?/ });
    const mark = github.requests.length;
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);
    const [limited, retried] = github.requests.slice(mark);
    expect(limited).toMatchObject({ status: 403, counted: false });
    expect(retried).toMatchObject({ path: limited?.path, status: 200 });
    // The wait GitHub asked for was honoured (a lower bound: timers never fire early by a whole 50 ms).
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(provider.quota()).toMatchObject({ secondaryLimitHits: 1, primaryLimitHits: 0 });
  });

  it('retries a burst of 5xx answers', async () => {
    const { github, provider } = await setup();
    github.injectFault({ kind: 'server-error', status: 502 }, { times: 2, method: 'POST' });
    const mark = github.requests.length;
    const item = await provider.workItemWriter.createWorkItem({
      title: 'x',
      body: '',
      labels: [],
      blockedBy: [],
    });
    const posts = github.requests.slice(mark).filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.status)).toEqual([502, 502, 201]);
    expect(await provider.workItemReader.listWorkItems()).toEqual([item]);
  });

  it('waits for the reset when the primary budget is spent, then goes on', async () => {
    const { github, provider } = await setup();
    github.setRateLimit({ remaining: 0, resetInSeconds: 1 });
    const mark = github.requests.length;
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);
    // The issues listing waits for the reset; the pull requests' listing after it goes at once.
    expect(github.requests.slice(mark).map((request) => request.status)).toEqual([403, 200, 200]);
    expect(provider.quota()).toMatchObject({ primaryLimitHits: 1, core: { limit: 5000 } });
  });
});

describe('GitHub provider: circuit breaker', () => {
  it('after repeated 5xx answers reads fail fast with a clear error, then a probe closes the circuit', async () => {
    const { github, provider } = await setup({
      retries: 2,
      circuitBreaker: { failureThreshold: 3, cooldownMs: 300 },
    });
    github.injectFault({ kind: 'server-error', status: 503 }, { times: 3 });
    let mark = github.requests.length;
    await expect(provider.workItemReader.listWorkItems()).rejects.toThrow();
    // The first attempt and its 2 retries.
    expect(github.requests.slice(mark).map((request) => request.status)).toEqual([503, 503, 503]);
    expect(provider.quota().circuit).toMatchObject({ state: 'open', consecutiveFailures: 3 });

    mark = github.requests.length;
    const error = await provider.workItemReader.listWorkItems().catch((caught: unknown) => caught);
    expect(String(error)).toMatch(
      /GitHub is unavailable: 3 requests in a row failed \(last: 503 on GET \/repos\/acme\/widgets\/issues\)/,
    );
    expect(github.requests.length).toBe(mark); // nothing sent
    await expect(provider.specReader.listSpecs()).rejects.toThrow(/GitHub is unavailable/);

    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);
    expect(provider.quota().circuit).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('the pollers are told to slow down as the budget drains', async () => {
    const { github, provider } = await setup();
    await provider.workItemReader.listWorkItems();
    expect(provider.pollIntervalFactor()).toBe(1);
    github.setRateLimit({ remaining: 400, resetInSeconds: 600 });
    github.human.createIssue({ title: 'new', labels: ['task:implement'] }); // the next listing is a 200
    await provider.workItemReader.listWorkItems();
    expect(provider.pollIntervalFactor()).toBe(8);
    expect(provider.quota().pollIntervalFactor).toBe(8);
  });
});

describe('GitHub provider: authentication', () => {
  it('names both variables when no token is set', () => {
    expect(() => readGitHubToken({})).toThrow(/FLOTILLA_GITHUB_TOKEN \(or GITHUB_TOKEN\)/);
    expect(readGitHubToken({ GITHUB_TOKEN: 'a', FLOTILLA_GITHUB_TOKEN: 'b' })).toEqual({
      value: 'b',
      variable: 'FLOTILLA_GITHUB_TOKEN',
    });
  });

  it('a rejected token (401) is an error naming its variable, and the token is never logged', async () => {
    const logger = createRecordingLogger();
    const wrong = 'ghp_wrong_token_abcdef';
    const { github, provider } = await setup({ env: { GITHUB_TOKEN: wrong }, logger });
    const error = await provider.workItemReader.listWorkItems().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^GitHub rejected the token in GITHUB_TOKEN \(401 Bad credentials\)/,
    );
    // 401 is not retried.
    expect(github.requests.map((request) => request.status)).toEqual([401]);
    const everything = JSON.stringify([
      (error as Error).message,
      String((error as Error).cause),
      JSON.stringify((error as Error).cause),
      logger.records,
    ]);
    expect(everything).not.toContain(wrong);
  });

  it('a token revoked mid-run fails the same way', async () => {
    const { github, provider } = await setup();
    await provider.workItemReader.listWorkItems();
    github.injectFault({ kind: 'bad-credentials' });
    await expect(provider.workItemReader.listWorkItems()).rejects.toThrow(/FLOTILLA_GITHUB_TOKEN \(401/);
  });
});
