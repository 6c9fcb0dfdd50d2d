import type { Revision } from '../../../domain/index.ts';
import type { MergeRevisionOptions, UpdateRevisionBranchResult } from '../../types.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import type { MergeInspector } from './inspect-merge-in-mirror.ts';

export interface GitHubMergeQueueOptions {
  octokit: GitHubOctokit;
  owner: string;
  repo: string;
  defaultBranch(): Promise<string>;
  inspector: MergeInspector;
  /** The pull request as a revision (conditional REST reads: head, checks, the engine's review). */
  getRevision(id: string): Promise<Revision | null>;
  /** How long GitHub may take to move the head after update-branch's 202. Default 2 minutes. */
  updateTimeoutMs?: number;
  /** How often the head is read while it has not moved. Default 1 s. */
  updatePollMs?: number;
}

/** The pull request's place in GitHub's merge queue: one GraphQL point. */
const PULL_REQUEST_QUEUE_QUERY = `query flotillaPullRequestQueue($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) { pullRequest(number: $number) { state mergeQueueEntry { state position } } }
}`;
const ENQUEUE_MUTATION = `mutation flotillaEnqueuePullRequest($pullRequestId: ID!, $expectedHeadOid: GitObjectID) {
  enqueuePullRequest(input: { pullRequestId: $pullRequestId, expectedHeadOid: $expectedHeadOid }) {
    mergeQueueEntry { state position }
  }
}`;
const MARKER = /<!-- flotilla:workItem #(\d+) -->\s*$/;

type Pull = Awaited<ReturnType<GitHubOctokit['rest']['pulls']['get']>>['data'];
interface QueueAnswer {
  repository: {
    pullRequest: { state: string; mergeQueueEntry: { state: string; position: number } | null } | null;
  };
}

/**
 * The merge queue's GitHub side (issue #30 §5; GitHub's rules are in docs/github-merge-queue.md):
 * - `updateRevisionBranch`: up to date when the default branch's head is already in the pull request's
 *   (asked of git in a mirror, no REST call); otherwise `PUT pulls/{n}/update-branch` with
 *   `expected_head_sha` (GitHub merges the base into the head as a new commit, 202), then the new head once
 *   GitHub has written it: its checks start over. A 422 is a conflict when git finds one merging the two
 *   heads (the files and hunks go back to an implementor), else the refusal is thrown (a head that moved is
 *   stepped again at the next poll).
 * - where a ruleset requires GitHub's own merge queue on the default branch (`GET rules/branches/{branch}`
 *   lists a `merge_queue` rule), the pull request is handed to it instead (`enqueuePullRequest`, GraphQL):
 *   GitHub tests and merges it; its body names the item with a closing keyword (`Closes #12`) so the merge
 *   closes the item. The revision shows `pending` while it is queued; a removal from the queue on its head
 *   shows as red checks with GitHub's reason (open-pull-requests-query.ts), which sends it back.
 * - `requireUpToDate`: what the queue's fast-forward-only merge checks first — the head is still the one
 *   that passed and the default branch is in it — so the merge lands exactly the tree that was checked.
 */
export function createGitHubMergeQueue(options: GitHubMergeQueueOptions) {
  const { octokit, owner, repo, inspector } = options;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function requireOpen(pull: Pull, expectedHeadSHA: string): Pull {
    const id = pull.number;
    if (pull.state !== 'open')
      throw new Error(`pull request #${id} is ${pull.state}; only open ones are queued`);
    if (pull.head.sha !== expectedHeadSHA) {
      throw new Error(
        `pull request #${id} is at ${pull.head.sha.slice(0, 12)}, not ${expectedHeadSHA.slice(0, 12)}; nothing was updated`,
      );
    }
    return pull;
  }

  /** Whether a ruleset requires GitHub's merge queue on the branch (a free 304 once known). */
  async function usesGitHubQueue(branch: string): Promise<boolean> {
    try {
      const { data } = await octokit.rest.repos.getBranchRules({ owner, repo, branch, per_page: 100 });
      return data.some((rule) => rule.type === 'merge_queue');
    } catch (error) {
      if (httpStatusOf(error) === 404) return false; // a server without rulesets
      throw error;
    }
  }

  async function revisionOf(id: string): Promise<Revision> {
    const revision = await options.getRevision(id);
    if (revision === null) throw new Error(`pull request #${id} is gone`);
    return revision;
  }

  async function conflictOrNull(pull: Pull, base: string) {
    const heads = await inspector.fetch([base, pull.head.ref]);
    const [baseSHA, headSHA] = [heads[base] ?? '', heads[pull.head.ref] ?? ''];
    const labels = { [baseSHA]: base, [headSHA]: pull.head.ref };
    const files = await inspector.conflicts(baseSHA, headSHA, labels);
    return { baseSHA, headSHA, files };
  }

  async function waitForNewHead(id: string, previous: string): Promise<string> {
    const deadline = Date.now() + (options.updateTimeoutMs ?? 120_000);
    for (;;) {
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: Number(id) });
      if (data.head.sha !== previous) return data.head.sha;
      if (Date.now() > deadline) {
        throw new Error(`GitHub accepted the update of pull request #${id} but its head has not moved`);
      }
      await sleep(options.updatePollMs ?? 1000);
    }
  }

  async function updateBranch(pull: Pull, base: string): Promise<UpdateRevisionBranchResult> {
    const id = String(pull.number);
    const heads = await inspector.fetch([base, pull.head.ref]);
    const baseSHA = heads[base] ?? '';
    if (await inspector.contains(pull.head.sha, baseSHA)) {
      return { outcome: 'up-to-date', revision: await revisionOf(id) };
    }
    try {
      await octokit.rest.pulls.updateBranch({
        owner,
        repo,
        pull_number: pull.number,
        expected_head_sha: pull.head.sha,
      });
    } catch (error) {
      if (httpStatusOf(error) !== 422) throw error;
      const conflict = await conflictOrNull(pull, base);
      if (conflict.files.length > 0)
        return { outcome: 'conflict', baseSHA: conflict.baseSHA, files: conflict.files };
      throw new Error(`GitHub did not update pull request #${id}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const updated = await waitForNewHead(id, pull.head.sha);
    await inspector.fetch([pull.head.ref]);
    const changedApproved = await inspector.changedApproved(pull.head.sha, baseSHA, updated);
    return {
      outcome: 'rebased',
      revision: await revisionOf(id),
      previousHeadSHA: pull.head.sha,
      changedApproved,
    };
  }

  /** The pull request as GitHub's queue sees it now: queued, merged by the queue, or neither. */
  async function queueStateOf(pull: Pull): Promise<'queued' | 'merged' | 'not-queued'> {
    const { pullRequest } = (
      await octokit.graphql<QueueAnswer>(PULL_REQUEST_QUEUE_QUERY, { owner, repo, number: pull.number })
    ).repository;
    if (pullRequest?.state === 'MERGED') return 'merged';
    return pullRequest?.mergeQueueEntry == null ? 'not-queued' : 'queued';
  }

  /**
   * `enqueuePullRequest`; a refusal is no error when the queue took or merged the pull request meanwhile
   * (the queue moves between our reads: the engine's view of it lags).
   */
  async function enqueueMutation(pull: Pull): Promise<void> {
    try {
      await octokit.graphql(ENQUEUE_MUTATION, {
        pullRequestId: pull.node_id,
        expectedHeadOid: pull.head.sha,
      });
    } catch (error) {
      if ((await queueStateOf(pull)) === 'not-queued') throw error;
    }
  }

  async function enqueue(pull: Pull, base: string): Promise<UpdateRevisionBranchResult> {
    const id = String(pull.number);
    if ((await queueStateOf(pull)) === 'not-queued') {
      // GitHub would take a conflicting pull request out of its queue at once: it goes back now instead.
      const conflict = await conflictOrNull(pull, base);
      if (conflict.files.length > 0)
        return { outcome: 'conflict', baseSHA: conflict.baseSHA, files: conflict.files };
      const workItemID = MARKER.exec(pull.body ?? '')?.[1];
      const body = pull.body ?? '';
      if (workItemID !== undefined && !body.includes(`Closes #${workItemID}`)) {
        // GitHub merges it, not Flotilla: its closing keyword closes the item then.
        const marker = MARKER.exec(body)?.[0] ?? '';
        const text = body.slice(0, body.length - marker.length).trimEnd();
        await octokit.rest.pulls.update({
          owner,
          repo,
          pull_number: pull.number,
          body: `${text}\n\nCloses #${workItemID}\n\n${marker}`,
        });
      }
      await enqueueMutation(pull);
    }
    const revision = await revisionOf(id);
    return {
      outcome: 'enqueued',
      revision: { ...revision, pipeline: { status: 'pending', url: null, reason: null } },
    };
  }

  return {
    async updateRevisionBranch(id: string, expectedHeadSHA: string): Promise<UpdateRevisionBranchResult> {
      const { data: current } = await octokit.rest.pulls.get({ owner, repo, pull_number: Number(id) });
      if (current.merged_at !== null && current.head.sha === expectedHeadSHA) {
        // GitHub's queue merged it (the engine's view lags a poll behind): nothing to do, the item closes.
        return { outcome: 'enqueued', revision: await revisionOf(id) };
      }
      const pull = requireOpen(current, expectedHeadSHA);
      const base = await options.defaultBranch();
      return (await usesGitHubQueue(base)) ? enqueue(pull, base) : updateBranch(pull, base);
    },
    async requireUpToDate(id: string, mergeOptions: MergeRevisionOptions): Promise<void> {
      if (mergeOptions.fastForwardOnly !== true) return;
      const { data: pull } = await octokit.rest.pulls.get({ owner, repo, pull_number: Number(id) });
      const expected = mergeOptions.expectedHeadSHA ?? pull.head.sha;
      const base = await options.defaultBranch();
      const heads = await inspector.fetch([base, pull.head.ref]);
      if (heads[pull.head.ref] !== expected || !(await inspector.contains(expected, heads[base] ?? ''))) {
        throw new Error(
          `pull request #${id} is not ${expected.slice(0, 12)} on top of ${base} any more; nothing was merged (the queue brings it up to date again)`,
        );
      }
    },
  };
}
