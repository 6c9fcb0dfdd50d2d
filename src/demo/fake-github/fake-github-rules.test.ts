import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeGitHub, type FakeGitHub } from './create-fake-github.ts';

/**
 * GitHub's documented rules the provider relies on, kept by the fake (each linked in src/providers/github/README.md):
 * written from GitHub's docs and error bodies, not from what Flotilla sends.
 */

const TOKEN = 'ghp_rules_author';
const REVIEWER = 'ghp_rules_reviewer';
let github: FakeGitHub;
let repoPath: string;

async function call(method: string, path: string, body?: unknown, token = TOKEN) {
  const response = await fetch(`${github.apiUrl}${path}`, {
    method,
    headers: { authorization: `token ${token}` },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    // biome-ignore lint/suspicious/noExplicitAny: test reads of GitHub's JSON bodies
    body: (text === '' ? null : JSON.parse(text)) as any,
  };
}

/** A pull request opened through the API by the main token's user: `src/a.js` with lines 1–3 added. */
async function openOwnPullRequest(branch: string): Promise<number> {
  const base = await github.git.resolveCommit('refs/heads/main');
  await github.git.commitFiles(branch, { 'src/a.js': 'one\ntwo\nthree\n' }, 'Add a', base ?? undefined);
  const created = await call('POST', `${repoPath}/pulls`, { title: branch, head: branch, base: 'main' });
  expect(created.status).toBe(201);
  return created.body.number as number;
}

beforeAll(async () => {
  github = await createFakeGitHub({
    token: TOKEN,
    login: 'flotilla-bot',
    extraUsers: [{ token: REVIEWER, login: 'flotilla-reviewer' }],
  });
  repoPath = `/repos/${github.owner}/${github.repo}`;
});
afterAll(() => github.close());

describe('fake GitHub keeps GitHub’s rules', () => {
  it('the author of a pull request cannot approve it or request changes on it; another account can; anyone may comment', async () => {
    const pull = await openOwnPullRequest('own-review');
    const approve = await call('POST', `${repoPath}/pulls/${pull}/reviews`, { event: 'APPROVE', body: 'ok' });
    expect([approve.status, approve.body.message, approve.body.errors]).toEqual([
      422,
      'Unprocessable Entity',
      ['Can not approve your own pull request'],
    ]);
    const changes = await call('POST', `${repoPath}/pulls/${pull}/reviews`, {
      event: 'REQUEST_CHANGES',
      body: 'no',
    });
    expect([changes.status, changes.body.errors]).toEqual([
      422,
      ['Can not request changes on your own pull request'],
    ]);
    const comment = await call('POST', `${repoPath}/pulls/${pull}/reviews`, { event: 'COMMENT', body: 'hm' });
    expect([comment.status, comment.body.state]).toEqual([200, 'COMMENTED']);
    const other = await call('POST', `${repoPath}/pulls/${pull}/reviews`, { event: 'APPROVE' }, REVIEWER);
    expect([other.status, other.body.state, other.body.user.login]).toEqual([
      200,
      'APPROVED',
      'flotilla-reviewer',
    ]);
    // A commented review cannot be dismissed.
    const dismiss = await call('PUT', `${repoPath}/pulls/${pull}/reviews/${comment.body.id}/dismissals`, {
      message: 'x',
    });
    expect([dismiss.status, dismiss.body.errors]).toEqual([
      422,
      ['Can not dismiss a commented pull request review'],
    ]);
  });

  it('a review with one line comment outside the diff is refused whole; lines on the diff carry their diff hunk', async () => {
    const pull = await openOwnPullRequest('review-lines');
    const reviewsBefore = (await call('GET', `${repoPath}/pulls/${pull}/reviews`)).body.length;
    const refused = await call(
      'POST',
      `${repoPath}/pulls/${pull}/reviews`,
      {
        event: 'APPROVE',
        comments: [
          { path: 'src/a.js', line: 2, body: 'on the diff' },
          { path: 'src/a.js', line: 9, body: 'past the end of the file' },
        ],
      },
      REVIEWER,
    );
    expect([refused.status, refused.body.errors]).toEqual([
      422,
      ['Pull request review thread line must be part of the diff'],
    ]);
    const otherFile = await call(
      'POST',
      `${repoPath}/pulls/${pull}/reviews`,
      { event: 'COMMENT', comments: [{ path: 'README.md', line: 1, body: 'not changed here' }] },
      REVIEWER,
    );
    expect([otherFile.status, otherFile.body.errors]).toEqual([
      422,
      ['Pull request review thread path is invalid'],
    ]);
    expect((await call('GET', `${repoPath}/pulls/${pull}/reviews`)).body).toHaveLength(reviewsBefore);

    const placed = await call(
      'POST',
      `${repoPath}/pulls/${pull}/reviews`,
      { event: 'REQUEST_CHANGES', comments: [{ path: 'src/a.js', line: 2, body: 'two?' }] },
      REVIEWER,
    );
    expect(placed.status).toBe(200);
    const [comment] = (await call('GET', `${repoPath}/pulls/${pull}/comments`)).body;
    expect([comment.path, comment.line, comment.diff_hunk]).toEqual([
      'src/a.js',
      2,
      '@@ -0,0 +1,3 @@\n+one\n+two',
    ]);
    const reply = await call('POST', `${repoPath}/pulls/${pull}/comments/${comment.id}/replies`, {
      body: 'done',
    });
    expect([reply.status, reply.body.in_reply_to_id, reply.body.user.login]).toEqual([
      201,
      comment.id,
      'flotilla-bot',
    ]);
  });

  it('check runs are written by GitHub Apps only: a user token gets 403', async () => {
    const head = await github.git.resolveCommit('refs/heads/main');
    const created = await call('POST', `${repoPath}/check-runs`, { name: 'lint', head_sha: head });
    expect([created.status, created.body.message]).toEqual([403, 'You must authenticate via a GitHub App.']);
  });

  it('merging with a stale head sha is 409; mergeable is null on the first read of a new head, then computed', async () => {
    const pull = await openOwnPullRequest('merge-stale');
    const first = await call('GET', `${repoPath}/pulls/${pull}`);
    expect([first.body.mergeable, first.body.mergeable_state]).toEqual([null, 'unknown']);
    const second = await call('GET', `${repoPath}/pulls/${pull}`);
    expect([second.body.mergeable, second.body.mergeable_state]).toEqual([true, 'clean']);
    const stale = second.body.head.sha as string;
    await github.git.commitFiles('merge-stale', { 'src/a.js': 'one\ntwo\nthree\nfour\n' }, 'More');
    expect((await call('GET', `${repoPath}/pulls/${pull}`)).body.mergeable).toBeNull();
    const merge = await call('PUT', `${repoPath}/pulls/${pull}/merge`, { sha: stale });
    expect([merge.status, merge.body.message]).toEqual([
      409,
      'Head branch was modified. Review and try the merge again.',
    ]);
  });

  it('secondary rate limits answer 403 or 429 with retry-after', async () => {
    github.injectFault({ kind: 'secondary-rate-limit', retryAfterSeconds: 7 }, { path: /\/issues/ });
    github.injectFault(
      { kind: 'secondary-rate-limit', retryAfterSeconds: 3, status: 429 },
      { path: /\/issues/ },
    );
    const first = await call('GET', `${repoPath}/issues`);
    const second = await call('GET', `${repoPath}/issues`);
    expect([first.status, first.headers.get('retry-after'), first.body.message]).toEqual([
      403,
      '7',
      expect.stringContaining('secondary rate limit'),
    ]);
    expect([second.status, second.headers.get('retry-after')]).toEqual([429, '3']);
  });

  it('lists page at most 100 items, whatever per_page asks, with a Link to the next page', async () => {
    for (let i = 0; i < 101; i++) github.human.createIssue({ title: `bulk ${i}` });
    const page = await call('GET', `${repoPath}/issues?per_page=500`);
    expect(page.body).toHaveLength(100);
    expect(page.headers.get('link')).toMatch(/[?&]page=2>; rel="next"/);
  });
});
