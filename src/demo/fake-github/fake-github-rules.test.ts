import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeGitHub, type FakeGitHub } from './create-fake-github.ts';
import { MERGE_QUEUE_DOCS } from './fake-github-merge-queue.ts';

/**
 * GitHub's documented rules the provider relies on, kept by the fake (each linked in src/providers/github/README.md):
 * written from GitHub's docs and error bodies, not from what Flotilla sends.
 */

const TOKEN = 'ghp_rules_author';
const REVIEWER = 'ghp_rules_reviewer';
let github: FakeGitHub;
/** A repository whose default branch requires GitHub's merge queue, with a CI that passes. */
let queued: FakeGitHub;
let repoPath: string;

async function call(method: string, path: string, body?: unknown, token = TOKEN, on = github) {
  const response = await fetch(`${on.apiUrl}${path}`, {
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
async function openOwnPullRequest(
  branch: string,
  files: Record<string, string> = { 'src/a.js': 'one\ntwo\nthree\n' },
  on = github,
  body?: string,
): Promise<number> {
  const base = await on.git.resolveCommit('refs/heads/main');
  await on.git.commitFiles(branch, files, `Add ${branch}`, base ?? undefined);
  const created = await call(
    'POST',
    `${repoPath}/pulls`,
    { title: branch, head: branch, base: 'main', ...(body !== undefined && { body }) },
    TOKEN,
    on,
  );
  expect(created.status).toBe(201);
  return created.body.number as number;
}

const graphql = async (query: string, variables: Record<string, unknown>) =>
  (await call('POST', '/graphql', { query, variables }, TOKEN, queued)).body;
const ENQUEUE =
  'mutation flotillaEnqueuePullRequest($pullRequestId: ID!, $expectedHeadOid: GitObjectID) { enqueuePullRequest(input: { pullRequestId: $pullRequestId, expectedHeadOid: $expectedHeadOid }) { mergeQueueEntry { state position } } }';

beforeAll(async () => {
  github = await createFakeGitHub({
    token: TOKEN,
    login: 'flotilla-bot',
    extraUsers: [{ token: REVIEWER, login: 'flotilla-reviewer' }],
  });
  repoPath = `/repos/${github.owner}/${github.repo}`;
  queued = await createFakeGitHub({ token: TOKEN, mergeQueue: true, ci: 'passing' });
});
afterAll(async () => {
  await github.close();
  await queued.close();
});

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

  it(`update-branch merges the base into the head as a new commit; 422 on a stale expected_head_sha, nothing new, or a conflict (${MERGE_QUEUE_DOCS.updateBranch})`, async () => {
    const issue = github.human.createIssue({ title: 'closed by the merge' });
    const pull = await openOwnPullRequest('update-me', { 'src/u.js': 'u\n' }, github, `Closes #${issue}`);
    const clash = await openOwnPullRequest('clash', { 'README.md': '# Theirs\n' });
    const before = (await call('GET', `${repoPath}/pulls/${pull}`)).body.head.sha as string;
    const nothingNew = await call('PUT', `${repoPath}/pulls/${pull}/update-branch`, {
      expected_head_sha: before,
    });
    expect([nothingNew.status, nothingNew.body.message]).toEqual([
      422,
      'There are no new commits on the base branch.',
    ]);
    const base = await github.human.commitFiles({ 'README.md': '# Moved on\n' }, 'Move main');
    const stale = await call('PUT', `${repoPath}/pulls/${pull}/update-branch`, { expected_head_sha: base });
    expect([stale.status, stale.body.message]).toEqual([
      422,
      'expected head sha didn’t match current head ref.',
    ]);
    const updated = await call('PUT', `${repoPath}/pulls/${pull}/update-branch`, {
      expected_head_sha: before,
    });
    expect([updated.status, updated.body.message]).toEqual([202, 'Updating pull request branch.']);
    const after = (await call('GET', `${repoPath}/pulls/${pull}`)).body.head.sha as string;
    expect(after).not.toBe(before);
    expect(await github.git.isAncestor(before, after)).toBe(true);
    expect(await github.git.isAncestor(base, after)).toBe(true);
    const conflicted = await call('PUT', `${repoPath}/pulls/${clash}/update-branch`, {});
    expect([conflicted.status, conflicted.body.message]).toEqual([
      422,
      'merge conflict between base and head',
    ]);
    // The merge takes the head that passed: the one before the update is refused (409), the new one merges
    // and its closing keyword closes the issue.
    const old = await call('PUT', `${repoPath}/pulls/${pull}/merge`, { sha: before });
    expect(old.status).toBe(409);
    const merged = await call('PUT', `${repoPath}/pulls/${pull}/merge`, { sha: after });
    expect([merged.status, merged.body.merged]).toEqual([200, true]);
    expect((await call('GET', `${repoPath}/issues/${issue}`)).body.state).toBe('closed');
  }, 60_000);

  it(`update-branch gives the new head its own CI run (${MERGE_QUEUE_DOCS.updateBranch})`, async () => {
    const pull = await openOwnPullRequest('update-ci', { 'src/c.js': 'c\n' }, queued);
    const before = (await call('GET', `${repoPath}/pulls/${pull}`, undefined, TOKEN, queued)).body.head.sha;
    await queued.human.commitFiles({ 'NEWS.md': 'news\n' }, 'News');
    const updated = await call('PUT', `${repoPath}/pulls/${pull}/update-branch`, {}, TOKEN, queued);
    expect(updated.status).toBe(202);
    const after = (await call('GET', `${repoPath}/pulls/${pull}`, undefined, TOKEN, queued)).body.head.sha;
    const runs = await call('GET', `${repoPath}/commits/${after}/check-runs`, undefined, TOKEN, queued);
    expect(after).not.toBe(before);
    expect(
      runs.body.check_runs.map((run: { head_sha: string; status: string }) => [run.head_sha, run.status]),
    ).toEqual([[after, 'queued']]);
  }, 60_000);

  it(`the rules of a branch name the merge queue where a ruleset requires it (${MERGE_QUEUE_DOCS.branchRules})`, async () => {
    const rules = await call('GET', `${repoPath}/rules/branches/main`, undefined, TOKEN, queued);
    expect(rules.body.map((rule: { type: string }) => rule.type)).toEqual(['merge_queue']);
    expect((await call('GET', `${repoPath}/rules/branches/other`, undefined, TOKEN, queued)).body).toEqual(
      [],
    );
    expect((await call('GET', `${repoPath}/rules/branches/main`)).body).toEqual([]);
  });

  it(`enqueuePullRequest queues; the queue merges in order once each merge group's checks pass; a conflict is removed with its reason (${MERGE_QUEUE_DOCS.enqueue}, ${MERGE_QUEUE_DOCS.mergeQueue}, ${MERGE_QUEUE_DOCS.pullRequestState})`, async () => {
    const issue = queued.human.createIssue({ title: 'closed by the queue' });
    const first = await openOwnPullRequest('queue-1', { 'q/1.js': '1\n' }, queued, `Closes #${issue}`);
    const second = await openOwnPullRequest('queue-2', { 'q/2.js': '2\n' }, queued);
    const clash = await openOwnPullRequest('queue-3', { 'NEWS.md': 'other news\n' }, queued);
    const pullOf = async (n: number) =>
      (await call('GET', `${repoPath}/pulls/${n}`, undefined, TOKEN, queued)).body;
    const direct = await call('PUT', `${repoPath}/pulls/${first}/merge`, {}, TOKEN, queued);
    expect([direct.status, direct.body.message]).toEqual([
      405,
      'Repository rule violations found\n\nChanges must be made through the merge queue',
    ]);
    const stale = await graphql(ENQUEUE, {
      pullRequestId: (await pullOf(first)).node_id,
      expectedHeadOid: '0'.repeat(40),
    });
    expect(stale.errors[0].message).toBe('Head sha did not match expected head oid.');
    for (const n of [first, second, clash]) {
      const pull = await pullOf(n);
      const answer = await graphql(ENQUEUE, { pullRequestId: pull.node_id, expectedHeadOid: pull.head.sha });
      expect(answer.data.enqueuePullRequest.mergeQueueEntry.state).toBe('QUEUED');
    }
    await queued.human.commitFiles({ 'NEWS.md': 'news, again\n' }, 'More news');
    // Checks not finished on the merge group: nothing merged yet.
    expect((await pullOf(first)).merged_at).toBeNull();
    while ((await pullOf(second)).state === 'open') await queued.settleChecks();
    expect([(await pullOf(first)).merged_at === null, (await pullOf(second)).merged_at === null]).toEqual([
      false,
      false,
    ]);
    // In queue order: main holds the second's head, and the first's merge group is in the second's.
    const main = (await queued.git.resolveCommit('refs/heads/main')) ?? '';
    expect(await queued.git.isAncestor((await pullOf(second)).head.sha, main)).toBe(true);
    expect(await queued.git.isAncestor((await pullOf(first)).head.sha, `${main}^1`)).toBe(true);
    expect((await call('GET', `${repoPath}/issues/${issue}`, undefined, TOKEN, queued)).body.state).toBe(
      'closed',
    );
    // A merged pull request reads MERGED (PullRequestState) with no queue entry, and cannot be queued again.
    const mergedState = await graphql(
      'query flotillaPullRequestQueue($owner: String!, $repo: String!, $number: Int!) { x }',
      { owner: queued.owner, repo: queued.repo, number: first },
    );
    expect(mergedState.data.repository.pullRequest).toMatchObject({ state: 'MERGED', mergeQueueEntry: null });
    const again = await pullOf(first);
    const requeue = await graphql(ENQUEUE, { pullRequestId: again.node_id, expectedHeadOid: again.head.sha });
    expect(requeue.errors[0].message).toBe('Pull request is not in a mergeable state.');
    const open = await graphql(
      'query flotillaOpenPullRequests($owner: String!, $repo: String!, $cursor: String) { x }',
      { owner: queued.owner, repo: queued.repo, cursor: null },
    );
    const removed = open.data.repository.pullRequests.nodes.find(
      (node: { number: number }) => node.number === clash,
    );
    expect(removed.mergeQueueEntry).toBeNull();
    expect(removed.timelineItems.nodes).toEqual([
      expect.objectContaining({
        __typename: 'RemovedFromMergeQueueEvent',
        reason: 'merge conflict with the base branch',
      }),
    ]);
  }, 60_000);

  it(`a queued pull request's entry: its position from 1, QUEUED until its merge group runs its checks (AWAITING_CHECKS), when it was enqueued (${MERGE_QUEUE_DOCS.mergeQueueEntry}, ${MERGE_QUEUE_DOCS.mergeQueueEntryState})`, async () => {
    const entries = async () => {
      const open = await graphql(
        'query flotillaOpenPullRequests($owner: String!, $repo: String!, $cursor: String) { x }',
        { owner: queued.owner, repo: queued.repo, cursor: null },
      );
      const nodes: { number: number; mergeQueueEntry: unknown }[] = open.data.repository.pullRequests.nodes;
      return Object.fromEntries(nodes.map((node) => [node.number, node.mergeQueueEntry]));
    };
    const a = await openOwnPullRequest('entry-a', { 'e/a.js': 'a\n' }, queued);
    const b = await openOwnPullRequest('entry-b', { 'e/b.js': 'b\n' }, queued);
    expect(await entries()).toMatchObject({ [a]: null, [b]: null }); // not queued: no entry
    const before = Date.now() - 1000;
    for (const n of [a, b]) {
      const pull = (await call('GET', `${repoPath}/pulls/${n}`, undefined, TOKEN, queued)).body;
      await graphql(ENQUEUE, { pullRequestId: pull.node_id, expectedHeadOid: pull.head.sha });
    }
    // The first's merge group is built and its checks run; the second waits behind it.
    const queuedNow = await entries();
    expect(queuedNow).toMatchObject({
      [a]: { position: 1, state: 'AWAITING_CHECKS', estimatedTimeToMerge: null },
      [b]: { position: 2, state: 'QUEUED', estimatedTimeToMerge: null },
    });
    const enqueuedAt = Date.parse((queuedNow[a] as { enqueuedAt: string }).enqueuedAt);
    expect(enqueuedAt).toBeGreaterThanOrEqual(before);
    expect(enqueuedAt).toBeLessThanOrEqual(Date.now());
    // The first merges: the second moves up to position 1 and its own merge group runs.
    await queued.settleChecks();
    expect(await entries()).toMatchObject({ [b]: { position: 1, state: 'AWAITING_CHECKS' } });
    while ((await entries())[b] !== undefined) await queued.settleChecks();
  }, 60_000);
});
