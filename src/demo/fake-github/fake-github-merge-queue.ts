import {
  type FakeIssue,
  type FakeQueueEvent,
  type FakeUser,
  githubTimestamp,
  nodeID,
} from './build-fake-github-resources.ts';
import {
  type FakeGitHubStore,
  type FakePullIssue,
  type FakeRoute,
  HttpError,
  ok,
  route,
} from './create-fake-github-store.ts';
import { checkRunsFor } from './fake-github-check-routes.ts';
import { stringOrNull } from './read-fake-github-body.ts';

/** GitHub's pages these rules follow (cited in the routes below and in fake-github-rules.test.ts). */
export const MERGE_QUEUE_DOCS = {
  updateBranch: 'https://docs.github.com/en/rest/pulls/pulls#update-a-pull-request-branch',
  branchRules: 'https://docs.github.com/en/rest/repos/rules#get-rules-for-a-branch',
  enqueue: 'https://docs.github.com/en/graphql/reference/mutations#enqueuepullrequest',
  pullRequestState: 'https://docs.github.com/en/graphql/reference/enums#pullrequeststate',
  mergeQueueEntry: 'https://docs.github.com/en/graphql/reference/objects#mergequeueentry',
  mergeQueueEntryState: 'https://docs.github.com/en/graphql/reference/enums#mergequeueentrystate',
  mergeQueue:
    'https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/configuring-pull-request-merges/managing-a-merge-queue',
  closingKeywords:
    'https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue#linking-a-pull-request-to-an-issue-using-a-keyword',
} as const;

/** Who merges queued pull requests (GitHub's merge queue app). */
const MERGE_QUEUE_USER: FakeUser = { login: 'github-merge-queue[bot]', id: 118344674, type: 'Bot' };
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)\b/gi;

/**
 * The merge queue and the branch update (issue #30 §5), as GitHub documents them:
 * - `PUT pulls/{n}/update-branch` (MERGE_QUEUE_DOCS.updateBranch): merges the base branch's head into the
 *   pull request's branch as a new commit — 202 `Updating pull request branch.`; 422 when
 *   `expected_head_sha` is not the head, when the base has nothing new, or when they conflict.
 * - `GET rules/branches/{branch}` (MERGE_QUEUE_DOCS.branchRules): the rules that apply to a branch; with
 *   `mergeQueue` on, the default branch carries a `merge_queue` rule.
 */
export function buildFakeMergeQueueRoutes(store: FakeGitHubStore): FakeRoute[] {
  const { repoPath, git, requirePull, headSHA } = store;
  return [
    route('PUT', `${repoPath}/pulls/(\\d+)/update-branch`, async ([pullNumber], _query, body) => {
      const issue = requirePull(pullNumber);
      if (issue.state !== 'open') throw new HttpError(422, 'Pull request is closed.');
      const head = await headSHA(issue.pull);
      const expected = stringOrNull(body.expected_head_sha);
      if (expected !== null && expected !== head) {
        throw new HttpError(422, 'expected head sha didn’t match current head ref.');
      }
      const base = await git.resolveCommit(`refs/heads/${issue.pull.baseRef}`);
      if (base === null || (await git.isAncestor(base, head))) {
        throw new HttpError(422, 'There are no new commits on the base branch.');
      }
      const message = `Merge branch '${issue.pull.baseRef}' into ${issue.pull.headRef}`;
      const merged = await git.mergeCommit(head, base, message);
      if (merged === null) throw new HttpError(422, 'merge conflict between base and head');
      if (!(await git.moveBranch(issue.pull.headRef, merged, head))) {
        throw new HttpError(422, 'expected head sha didn’t match current head ref.');
      }
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(
        {
          message: 'Updating pull request branch.',
          url: `https://github.com/${store.owner}/${store.repo}/pull/${issue.number}`,
        },
        202,
      );
    }),
    route('GET', `${repoPath}/rules/branches/(.+)`, async ([branch]) =>
      ok(
        store.mergeQueue && branch === store.defaultBranch
          ? [
              {
                type: 'merge_queue',
                ruleset_source_type: 'Repository',
                ruleset_source: `${store.owner}/${store.repo}`,
                ruleset_id: 42,
                parameters: {
                  check_response_timeout_minutes: 60,
                  grouping_strategy: 'ALLGREEN',
                  max_entries_to_build: 5,
                  max_entries_to_merge: 5,
                  merge_method: 'MERGE',
                  min_entries_to_merge: 1,
                  min_entries_to_merge_wait_minutes: 5,
                },
              },
            ]
          : [],
      ),
    ),
  ];
}

/**
 * The GraphQL `enqueuePullRequest` mutation (MERGE_QUEUE_DOCS.enqueue): `pullRequestId` (the node id) and
 * `expectedHeadOid`. Errors as GraphQL gives them (HTTP 200, `errors`): no merge queue on the base, a closed
 * or draft pull request, a head that moved, one already queued.
 */
export async function answerEnqueuePullRequest(
  store: FakeGitHubStore,
  variables: Record<string, unknown>,
): Promise<unknown> {
  const refuse = (message: string) => ({
    data: { enqueuePullRequest: null },
    errors: [{ type: 'UNPROCESSABLE', path: ['enqueuePullRequest'], message }],
  });
  const issue = [...store.issues.values()].find(
    (candidate): candidate is FakePullIssue =>
      candidate.pull !== null && nodeID('PullRequest', candidate.id) === variables.pullRequestId,
  );
  if (issue === undefined) {
    return {
      data: { enqueuePullRequest: null },
      errors: [
        {
          type: 'NOT_FOUND',
          message: `Could not resolve to a node with the global id of '${String(variables.pullRequestId)}'`,
        },
      ],
    };
  }
  if (!store.mergeQueue || issue.pull.baseRef !== store.defaultBranch) {
    return refuse(`The merge queue is not enabled for ${issue.pull.baseRef}.`);
  }
  if (issue.state !== 'open' || issue.pull.draft) return refuse('Pull request is not in a mergeable state.');
  const head = await store.headSHA(issue.pull);
  if (typeof variables.expectedHeadOid === 'string' && variables.expectedHeadOid !== head) {
    return refuse('Head sha did not match expected head oid.');
  }
  if (issue.pull.queueEntry != null) return refuse('Pull request is already queued to merge.');
  const now = githubTimestamp(Date.now());
  issue.pull.queueEntry = { headSHA: head, enqueuedAt: now, group: null };
  issue.pull.queueEvents = [
    ...(issue.pull.queueEvents ?? []),
    { type: 'AddedToMergeQueueEvent', headSHA: head, reason: null, createdAt: now },
  ];
  store.queue.push(issue.number);
  return {
    data: {
      enqueuePullRequest: {
        mergeQueueEntry: {
          id: nodeID('MergeQueueEntry', issue.id),
          state: 'QUEUED',
          position: store.queue.length,
        },
      },
    },
  };
}

/**
 * One pull request's `state` (`PullRequestState`: OPEN, CLOSED or MERGED — a merged one is closed too,
 * MERGE_QUEUE_DOCS.pullRequestState) and place in the queue.
 */
export function answerPullRequestQueue(store: FakeGitHubStore, variables: Record<string, unknown>): unknown {
  const issue = store.issues.get(Number(variables.number));
  if (issue?.pull == null) return { data: { repository: { pullRequest: null } } };
  const pull = issue as FakePullIssue;
  const state = pull.pull.mergedAt !== null ? 'MERGED' : pull.state.toUpperCase();
  return { data: { repository: { pullRequest: { state, ...queueFieldsOf(store, pull) } } } };
}

/**
 * The pull request's `mergeQueueEntry` (MERGE_QUEUE_DOCS.mergeQueueEntry) and last queue event, for the open
 * pull requests query. `position`: "the position of this entry in the queue", 1 for the first; `state`
 * (MERGE_QUEUE_DOCS.mergeQueueEntryState): `AWAITING_CHECKS` ("waiting for checks to pass") once its merge
 * group is built and its checks run, `QUEUED` before; `enqueuedAt`: when it was added; `estimatedTimeToMerge`:
 * nullable, and the fake has no estimate. The fake builds one merge group at a time and merges the moment its
 * checks pass, so it never answers MERGEABLE, UNMERGEABLE (a failed group leaves at once) or LOCKED.
 */
export function queueFieldsOf(store: FakeGitHubStore, issue: FakePullIssue) {
  const entry = issue.pull.queueEntry;
  const last: FakeQueueEvent | undefined = issue.pull.queueEvents?.at(-1);
  return {
    mergeQueueEntry:
      entry == null
        ? null
        : {
            state: entry.group === null ? 'QUEUED' : 'AWAITING_CHECKS',
            position: store.queue.indexOf(issue.number) + 1,
            enqueuedAt: entry.enqueuedAt,
            estimatedTimeToMerge: null,
          },
    timelineItems: {
      nodes:
        last === undefined
          ? []
          : [
              last.type === 'RemovedFromMergeQueueEvent'
                ? {
                    __typename: last.type,
                    reason: last.reason,
                    beforeCommit: { oid: last.headSHA },
                    createdAt: last.createdAt,
                  }
                : { __typename: last.type, createdAt: last.createdAt },
            ],
    },
  };
}

/**
 * The queue at work (MERGE_QUEUE_DOCS.mergeQueue), one entry at a time: the first queued pull request's
 * merge group is its head merged with the base's head (a temporary `gh-readonly-queue/…` branch); the CI
 * runs on that commit; green, the base fast-forwards to it, the pull request is merged and closed and the
 * issues its body closes with a keyword are closed; red, or a conflict, or a head pushed since it was queued:
 * it leaves the queue with a `RemovedFromMergeQueueEvent` saying why. Run before each request is answered,
 * one run at a time per fake (requests are answered concurrently).
 */
export function advanceFakeMergeQueue(store: FakeGitHubStore): Promise<void> {
  const next = (running.get(store) ?? Promise.resolve()).then(() => advanceQueue(store));
  running.set(
    store,
    next.catch(() => {}),
  );
  return next;
}

const running = new WeakMap<FakeGitHubStore, Promise<void>>();

async function advanceQueue(store: FakeGitHubStore): Promise<void> {
  const { git } = store;
  for (;;) {
    const number = store.queue[0];
    if (number === undefined) return;
    const issue = store.requirePull(String(number));
    const entry = issue.pull.queueEntry;
    const head = await store.headSHA(issue.pull);
    if (entry == null || issue.state !== 'open') {
      store.queue.shift();
      continue;
    }
    if (head !== entry.headSHA) {
      await removeFromQueue(store, issue, 'the pull request was updated (a new head)');
      continue;
    }
    const base = await git.resolveCommit(`refs/heads/${issue.pull.baseRef}`);
    if (base === null) return;
    if (entry.group?.base !== base) {
      const groupBranch = `gh-readonly-queue/${issue.pull.baseRef}/pr-${number}-${head}`;
      const sha = await git.mergeCommit(base, head, `Merge pull request #${number} into the merge group`);
      if (sha === null) {
        await removeFromQueue(store, issue, 'merge conflict with the base branch');
        continue;
      }
      await git.moveBranch(groupBranch, sha, await git.resolveCommit(`refs/heads/${groupBranch}`));
      entry.group = { sha, base };
    }
    const run = checkRunsFor(store, entry.group.sha)[0];
    if (run !== undefined && run.status !== 'completed') return;
    if (run !== undefined && run.conclusion !== 'success') {
      await removeFromQueue(store, issue, `failed checks on the merge group (${run.name})`);
      continue;
    }
    if (!(await git.moveBranch(issue.pull.baseRef, entry.group.sha, base))) return;
    await git.deleteBranch(`gh-readonly-queue/${issue.pull.baseRef}/pr-${number}-${head}`);
    store.queue.shift();
    issue.pull.queueEntry = null;
    issue.pull.mergedAt = githubTimestamp(Date.now());
    store.setState(issue, 'closed', MERGE_QUEUE_USER);
    closeLinkedIssues(store, issue, MERGE_QUEUE_USER);
  }
}

async function removeFromQueue(store: FakeGitHubStore, issue: FakePullIssue, reason: string) {
  const entry = issue.pull.queueEntry;
  store.queue = store.queue.filter((number) => number !== issue.number);
  issue.pull.queueEntry = null;
  if (entry?.group != null) {
    await store.git.deleteBranch(
      `gh-readonly-queue/${issue.pull.baseRef}/pr-${issue.number}-${entry.headSHA}`,
    );
  }
  issue.pull.queueEvents = [
    ...(issue.pull.queueEvents ?? []),
    {
      type: 'RemovedFromMergeQueueEvent',
      headSHA: entry?.headSHA ?? (await store.headSHA(issue.pull)),
      reason,
      createdAt: githubTimestamp(Date.now()),
    },
  ];
}

/**
 * A pull request merged into the default branch closes the issues its body names with a closing keyword
 * (`Closes #12`, `fixes #3`, … MERGE_QUEUE_DOCS.closingKeywords).
 */
export function closeLinkedIssues(store: FakeGitHubStore, pull: FakePullIssue, by: FakeUser): void {
  if (pull.pull.baseRef !== store.defaultBranch) return;
  for (const match of (pull.body ?? '').matchAll(CLOSING)) {
    const linked: FakeIssue | undefined = store.issues.get(Number(match[1]));
    if (linked !== undefined && linked.pull === null) store.setState(linked, 'closed', by);
  }
}
