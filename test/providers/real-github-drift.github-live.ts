import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeGitHub, type FakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { readGitHubToken } from '../../src/providers/github/client/read-github-token.ts';
import { OPEN_PULL_REQUESTS_QUERY } from '../../src/providers/github/revisions/open-pull-requests-query.ts';
import { shapeOf, unknownFields } from '../support/github/compare-shapes.ts';

/**
 * Opt-in, against real GitHub: vitest.config.ts includes `*.github-live.ts` files only when
 * FLOTILLA_GITHUB_TEST_REPO (`owner/name`, a scratch repository) is set; the token comes from
 * FLOTILLA_GITHUB_TOKEN or GITHUB_TOKEN. Every request the fake answers for Flotilla is sent to both, and
 * every field the fake sends must exist in GitHub's answer with the same type, with the headers Flotilla
 * relies on — so drift in GitHub's API shows here. It writes: one issue (labelled, then closed). With
 * FLOTILLA_GITHUB_SHAPES_OUT set, GitHub's shapes (paths and types, no values) are written there.
 */
const [owner = '', repo = ''] = (process.env.FLOTILLA_GITHUB_TEST_REPO ?? '').split('/');
const token = readGitHubToken(process.env).value;
const realApi = (process.env.FLOTILLA_GITHUB_TEST_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
const FAKE_TOKEN = 'ghp_drift_fake';
const PROBE_LABEL = 'flotilla-drift-probe';

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}
const recorded: Record<string, [string, string[]][]> = {};
let fake: FakeGitHub;
let defaultBranch = 'main';

async function call(base: string, auth: string, method: string, path: string, body?: unknown, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `token ${auth}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      ...headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

/** The same request to GitHub and to the fake (the fake's path with its own owner/repo and numbers). */
async function both(
  name: string,
  method: string,
  path: (where: 'real' | 'fake') => string,
  body?: unknown,
  headers = {},
) {
  const real: Answer = await call(realApi, token, method, path('real'), body, headers);
  const faked: Answer = await call(fake.apiUrl, FAKE_TOKEN, method, path('fake'), body, headers);
  recorded[name] = [...shapeOf(real.body)].map(([field, types]) => [field, [...types]]);
  return { real, faked };
}

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-used',
  'x-ratelimit-resource',
];

describe(`the fake GitHub against ${owner}/${repo} on ${realApi}`, () => {
  const issue = { real: 0, fake: 0 };
  beforeAll(async () => {
    if (owner === '' || repo === '') throw new Error('FLOTILLA_GITHUB_TEST_REPO must be owner/name');
    fake = await createFakeGitHub({ token: FAKE_TOKEN, owner, repo });
  });
  afterAll(async () => {
    if (issue.real !== 0) {
      await call(realApi, token, 'PATCH', `/repos/${owner}/${repo}/issues/${issue.real}`, {
        state: 'closed',
      });
    }
    await fake?.close();
    if (process.env.FLOTILLA_GITHUB_SHAPES_OUT) {
      await writeFile(process.env.FLOTILLA_GITHUB_SHAPES_OUT, `${JSON.stringify(recorded, null, 2)}\n`);
    }
  });

  it('repository, default branch ref, issues (create, get, list, 304, labels, dependencies, close)', async () => {
    const repository = await both('repository', 'GET', () => `/repos/${owner}/${repo}`);
    expect(repository.real.status).toBe(200);
    defaultBranch = (repository.real.body as { default_branch: string }).default_branch;
    expect(unknownFields(repository.faked.body, repository.real.body)).toEqual([]);

    const ref = await both('ref', 'GET', () => `/repos/${owner}/${repo}/git/ref/heads/${defaultBranch}`);
    if (defaultBranch === 'main') expect(unknownFields(ref.faked.body, ref.real.body)).toEqual([]);

    const created = await both('create issue', 'POST', () => `/repos/${owner}/${repo}/issues`, {
      title: 'Flotilla drift probe (closed at once)',
      body: 'Opened and closed by the fake GitHub drift check.\n\n<!-- flotilla:create 0123456789abcdef0123 -->',
      labels: [PROBE_LABEL],
    });
    expect(created.real.status).toBe(201);
    issue.real = (created.real.body as { number: number }).number;
    issue.fake = (created.faked.body as { number: number }).number;
    expect(unknownFields(created.faked.body, created.real.body)).toEqual([]);
    const at = (where: 'real' | 'fake') => `/repos/${owner}/${repo}/issues/${issue[where]}`;

    const got = await both('get issue', 'GET', at);
    expect(unknownFields(got.faked.body, got.real.body)).toEqual([]);
    const listed = await both(
      'list issues',
      'GET',
      () => `/repos/${owner}/${repo}/issues?state=all&per_page=1`,
    );
    expect(unknownFields(listed.faked.body, listed.real.body)).toEqual([]);
    for (const header of ['etag', ...RATE_HEADERS]) {
      expect(listed.real.headers.get(header), header).not.toBeNull();
      expect(listed.faked.headers.get(header), header).not.toBeNull();
    }
    const etag = listed.real.headers.get('etag') ?? '';
    const again = await call(
      realApi,
      token,
      'GET',
      `/repos/${owner}/${repo}/issues?state=all&per_page=1`,
      undefined,
      {
        'if-none-match': etag,
      },
    );
    expect(again.status).toBe(304);

    const added = await both('add labels', 'POST', (where) => `${at(where)}/labels`, {
      labels: ['flotilla-drift-extra'],
    });
    expect(unknownFields(added.faked.body, added.real.body)).toEqual([]);
    const removed = await both(
      'remove label',
      'DELETE',
      (where) => `${at(where)}/labels/flotilla-drift-extra`,
    );
    expect([removed.real.status, removed.faked.status]).toEqual([200, 200]);
    const missing = await both(
      'remove missing label',
      'DELETE',
      (where) => `${at(where)}/labels/flotilla-drift-extra`,
    );
    expect([missing.real.status, missing.faked.status]).toEqual([404, 404]);

    const dependencies = await both('blocked by', 'GET', (where) => `${at(where)}/dependencies/blocked_by`);
    // 200 where the repository has issue dependencies; the fake has them unless told otherwise.
    expect(dependencies.real.status).toBe(dependencies.faked.status);
    const summary = (got.real.body as { issue_dependencies_summary?: object }).issue_dependencies_summary;
    if (summary !== undefined)
      expect(Object.keys(summary).sort()).toEqual([
        'blocked_by',
        'blocking',
        'total_blocked_by',
        'total_blocking',
      ]);

    const closed = await both('close issue', 'PATCH', at, { state: 'closed', state_reason: 'completed' });
    expect(unknownFields(closed.faked.body, closed.real.body)).toEqual([]);
  });

  it('the open pull requests GraphQL query', async () => {
    const answer = await both('graphql open pull requests', 'POST', () => '/graphql', {
      query: OPEN_PULL_REQUESTS_QUERY,
      variables: { owner, repo, cursor: null },
    });
    expect((answer.real.body as { errors?: unknown }).errors).toBeUndefined();
    expect(unknownFields(answer.faked.body, answer.real.body)).toEqual([]);
  });
});
