import type {
  AgentReview,
  Pipeline,
  Revision,
  RevisionFile,
  RevisionFileStatus,
} from '../../../domain/index.ts';
import type { GitIdentity } from '../../shared/create-branch-from-patch.ts';
import type {
  ChecksOutputTail,
  MergeRevisionResult,
  RevisionReader,
  RevisionWriter,
  WorkItemReader,
  WorkItemWriter,
} from '../../types.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import type { GitHubRepository } from '../work-items/create-github-work-items.ts';
import { buildPipeline, type CheckSummary, type StatusSummary } from './build-pipeline.ts';
import { maintainMirror } from './maintain-mirror.ts';
import {
  OPEN_PULL_REQUESTS_QUERY,
  type OpenPullRequestsPage,
  trackerQueueOf,
  withMergeQueue,
} from './open-pull-requests-query.ts';
import { buildOutsideDiffComment, parseOutsideDiffComment } from './outside-diff-comment.ts';
import { type GitRemote, pushPatchBranch } from './push-patch-branch.ts';
import { readChecksOutputTail } from './read-checks-output-tail.ts';
import {
  buildReviewBody,
  isOutsideDiffRefusal,
  isOwnPullRequestRefusal,
  readReviewVerdicts,
} from './review-verdict-marker.ts';

export interface GitHubRevisionsOptions extends GitHubRepository {
  octokit: GitHubOctokit;
  defaultBranch(): Promise<string>;
  workItems: WorkItemReader;
  /** Closes the work item after a merge. */
  workItemWriter: WorkItemWriter;
  remote: GitRemote;
  /** The bare repository patches are applied in (pushPatchBranch). */
  mirrorDir: string;
  /** Author and committer of the revisions' commits. */
  commitAuthor: GitIdentity;
  /**
   * A head with no check run and no commit status is green once it is this old (to Flotilla), so
   * repositories without CI still get reviewed; CI that registers later turns it pending again.
   */
  noChecksGraceMs: number;
  /** The mirror is cleaned and garbage-collected before the first push and after every this many. Default 25. */
  mirrorMaintenanceEvery?: number;
  /** The login the engine's writes are authored by (the token's user, or the App's bot). */
  engineLogin(): Promise<string>;
  /**
   * A second identity that posts the reviewer's reviews (`FLOTILLA_GITHUB_REVIEWER_*`): its client and login.
   * Absent: reviews go out as the engine's identity — a `COMMENT` review carrying the verdict on pull requests
   * that identity opened (GitHub refuses their author's approval).
   */
  reviewer?: { octokit: GitHubOctokit; login(): Promise<string> };
  /** How `mergeRevision` merges the pull request. Default `merge` (a merge commit). */
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  now?: () => number;
}

type Pull = Awaited<ReturnType<GitHubOctokit['rest']['pulls']['get']>>['data'];
type ListedPull = Awaited<ReturnType<GitHubOctokit['rest']['pulls']['list']>>['data'][number];

const NUMBER = /^[1-9][0-9]{0,9}$/;
/** Which work item a pull request implements: a hidden marker in its body (its idempotency key too). */
const MARKER = /\n*<!-- flotilla:workItem #(\d+) -->\s*$/;
const FILE_STATUSES: readonly RevisionFileStatus[] = [
  'added',
  'modified',
  'removed',
  'renamed',
  'copied',
  'changed',
];

/**
 * Revisions are pull requests (docs/reference-behaviour.md §7). A pull request belongs to a work item through a hidden marker
 * in its body (`<!-- flotilla:workItem #12 -->`, stripped on read, kept on body updates). `createFromPatch`
 * pushes the patch applied by git (pushPatchBranch, compare-and-swap against the pull request's head) and
 * opens the pull request, or updates the open one for the branch. The pipeline is the head's check runs and
 * commit statuses; the engine's review is the latest non-dismissed one by the token's user. `listRevisions`
 * (the poller's call) is one GraphQL query per 50 open pull requests (heads, check rollups, reviews); the
 * single-revision reads are conditional REST requests (free when nothing changed).
 */
export function createGitHubRevisions(options: GitHubRevisionsOptions): {
  reader: RevisionReader;
  writer: RevisionWriter & Required<Pick<RevisionWriter, 'mergeRevision'>>;
  /** Open pull requests' work items: work item id → revision id. */
  linkedRevisions(): Promise<Map<string, string>>;
} {
  const { octokit, owner, repo } = options;
  const now = options.now ?? Date.now;
  const where = `${owner}/${repo}`;
  const firstSeen = new Map<string, number>();
  // One patch at a time in the mirror: concurrent fetches and index files there would fight over its refs.
  let mirrorQueue: Promise<unknown> = Promise.resolve();
  const inMirror = <T>(task: () => Promise<T>): Promise<T> => {
    const result = mirrorQueue.then(task, task);
    mirrorQueue = result.catch(() => {});
    return result;
  };
  const engineLogin = options.engineLogin;
  const reviewOctokit = options.reviewer?.octokit ?? octokit;
  const reviewerLogin = options.reviewer?.login ?? engineLogin;
  const maintenanceEvery = options.mirrorMaintenanceEvery ?? 25;
  let pushesSinceMaintenance: number | null = null; // null: not maintained yet in this process
  const notFound = (id: string) => new Error(`Revision ${id} not found (no pull request #${id} in ${where})`);

  async function findPull(id: string): Promise<Pull | null> {
    if (!NUMBER.test(id)) return null;
    try {
      return (await octokit.rest.pulls.get({ owner, repo, pull_number: Number(id) })).data;
    } catch (error) {
      if (httpStatusOf(error) === 404) return null;
      throw error;
    }
  }
  async function requirePull(id: string): Promise<Pull> {
    const pull = await findPull(id);
    if (pull === null) throw notFound(id);
    return pull;
  }

  function pipelineFrom(sha: string, runs: CheckSummary[], statuses: StatusSummary[]): Pipeline {
    if (runs.length === 0 && statuses.length === 0) {
      const seen = firstSeen.get(sha) ?? now();
      firstSeen.set(sha, seen);
      const green = now() - seen >= options.noChecksGraceMs;
      return { status: green ? 'success' : 'pending', url: null, reason: null };
    }
    return buildPipeline(runs, statuses);
  }

  async function pipelineOf(sha: string): Promise<Pipeline | null> {
    try {
      const [runs, combined] = await Promise.all([
        octokit.paginate(octokit.rest.checks.listForRef, { owner, repo, ref: sha, per_page: 100 }),
        octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha, per_page: 100 }),
      ]);
      return pipelineFrom(
        sha,
        runs.map((run) => ({
          name: run.name,
          status: run.status,
          conclusion: run.conclusion,
          url: run.details_url ?? run.html_url ?? null,
          title: run.output?.title ?? null,
        })),
        combined.data.statuses.map((status) => ({
          context: status.context,
          state: status.state,
          url: status.target_url ?? null,
          description: status.description ?? null,
        })),
      );
    } catch {
      // Unknown, not "no checks": the engine keeps the last pipeline it knew (docs/reference-behaviour.md §7, defect: null read as removal).
      return null;
    }
  }

  /** Every open pull request with its head, checks and reviews: one GraphQL request per 50 (issue #12). */
  async function listRevisionsAtOnce(): Promise<Revision[]> {
    const revisions: Revision[] = [];
    let cursor: string | null = null;
    const separateReviewer = options.reviewer === undefined ? null : await options.reviewer.login();
    do {
      const page: OpenPullRequestsPage = await octokit.graphql(OPEN_PULL_REQUESTS_QUERY, {
        owner,
        repo,
        cursor,
      });
      const { nodes, pageInfo } = page.repository.pullRequests;
      for (const pull of nodes) {
        const body = pull.body ?? '';
        const contexts = pull.commits.nodes[0]?.commit.statusCheckRollup?.contexts.nodes ?? [];
        const runs = contexts.flatMap((node) =>
          node.__typename === 'CheckRun'
            ? [
                {
                  name: node.name,
                  status: node.status.toLowerCase(),
                  conclusion: node.conclusion?.toLowerCase() ?? null,
                  url: node.detailsUrl ?? node.url ?? null,
                  title: node.title ?? null,
                },
              ]
            : [],
        );
        const statuses = contexts.flatMap((node) =>
          node.__typename === 'StatusContext'
            ? [
                {
                  context: node.context,
                  state: node.state === 'EXPECTED' ? 'pending' : node.state.toLowerCase(),
                  url: node.targetUrl ?? null,
                  description: node.description ?? null,
                },
              ]
            : [],
        );
        const own = pull.reviews.nodes.filter(
          (review) =>
            review.author?.login === (separateReviewer ?? page.viewer.login) &&
            review.state !== 'PENDING' &&
            review.state !== 'DISMISSED',
        );
        const latest = own.at(-1);
        revisions.push({
          id: String(pull.number),
          title: pull.title,
          url: pull.url,
          headSHA: pull.headRefOid,
          headRef: pull.headRefName,
          author: pull.author?.login ?? '',
          body: body.replace(MARKER, ''),
          isDraft: pull.isDraft,
          workItemID: MARKER.exec(body)?.[1] ?? null,
          pipeline: withMergeQueue(pipelineFrom(pull.headRefOid, runs, statuses), pull),
          reviewID: latest?.databaseId == null ? null : String(latest.databaseId),
          ...trackerQueueOf(pull),
        });
      }
      cursor = pageInfo.hasNextPage ? pageInfo.endCursor : null;
    } while (cursor !== null);
    return revisions;
  }

  async function engineReviewID(pullNumber: number): Promise<string | null> {
    const [me, reviews] = await Promise.all([
      reviewerLogin(),
      octokit.paginate(octokit.rest.pulls.listReviews, {
        owner,
        repo,
        pull_number: pullNumber,
        per_page: 100,
      }),
    ]);
    const own = reviews.filter(
      (review) => review.user?.login === me && review.state !== 'PENDING' && review.state !== 'DISMISSED',
    );
    const latest = own.at(-1);
    return latest === undefined ? null : String(latest.id);
  }

  async function toRevision(pull: Pull | ListedPull): Promise<Revision> {
    const body = pull.body ?? '';
    const [pipeline, reviewID] = await Promise.all([pipelineOf(pull.head.sha), engineReviewID(pull.number)]);
    return {
      id: String(pull.number),
      title: pull.title,
      url: pull.html_url,
      headSHA: pull.head.sha,
      headRef: pull.head.ref,
      author: pull.user?.login ?? '',
      body: body.replace(MARKER, ''),
      isDraft: pull.draft ?? false,
      workItemID: MARKER.exec(body)?.[1] ?? null,
      pipeline,
      reviewID,
    };
  }

  async function openPulls(): Promise<ListedPull[]> {
    const pulls = await octokit.paginate(octokit.rest.pulls.list, {
      owner,
      repo,
      state: 'open',
      sort: 'created',
      direction: 'asc',
      per_page: 100,
    });
    return pulls.sort((a, b) => a.number - b.number);
  }

  /**
   * Posts the reviewer's verdict as a review on the head commit. The identity that reviews cannot approve or
   * request changes on a pull request it opened (GitHub: 422): then the verdict goes out as a `COMMENT`
   * review, the verdict first in its body and hidden at its end, its line comments kept. A 422 is never sent
   * again unchanged: only a refusal GitHub explains (own pull request, a line off the diff) is answered, by a
   * different request.
   */
  async function postReview(pull: Pull, review: AgentReview): Promise<string> {
    const inline = review.comments.filter((comment) => comment.line !== null);
    const fileLevel = review.comments.filter((comment) => comment.line === null);
    let asComment = pull.user?.login === (await reviewerLogin());
    const create = (lineComments: typeof inline) =>
      reviewOctokit.rest.pulls.createReview({
        owner,
        repo,
        pull_number: pull.number,
        commit_id: pull.head.sha,
        body: buildReviewBody(review, asComment),
        event: asComment ? 'COMMENT' : review.verdict === 'approve' ? 'APPROVE' : 'REQUEST_CHANGES',
        ...(lineComments.length === 0
          ? {}
          : {
              comments: lineComments.map(({ path, line, body }) => ({
                path,
                line: line ?? 1,
                side: 'RIGHT',
                body,
              })),
            }),
      });
    const outsideDiff: AgentReview['comments'] = [];
    let created: Awaited<ReturnType<typeof create>> | null = null;
    let comments = inline;
    for (let attempt = 0; created === null; attempt++) {
      try {
        created = await create(comments);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (httpStatusOf(error) !== 422 || attempt >= 2) throw error;
        if (!asComment && isOwnPullRequestRefusal(message)) {
          asComment = true; // the reviewing identity is the author after all (e.g. a login GitHub spells otherwise)
        } else if (comments.length > 0 && isOutsideDiffRefusal(message)) {
          // A line outside the diff makes GitHub refuse the whole review: post it without them.
          outsideDiff.push(...comments);
          comments = [];
        } else {
          throw error;
        }
      }
    }
    for (const comment of fileLevel) {
      await reviewOctokit.rest.pulls
        .createReviewComment({
          owner,
          repo,
          pull_number: pull.number,
          commit_id: pull.head.sha,
          path: comment.path,
          subject_type: 'file',
          body: comment.body,
        })
        .catch((error: unknown) => {
          if (httpStatusOf(error) !== 422) throw error;
          outsideDiff.push(comment); // a file outside the diff
        });
    }
    if (outsideDiff.length > 0) {
      // Not lost: one conversation comment people can read, and getReviewHistory reads back.
      await reviewOctokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: pull.number,
        body: buildOutsideDiffComment(outsideDiff),
      });
    }
    return String(created.data.id);
  }

  const reader: RevisionReader = {
    listRevisions: listRevisionsAtOnce,
    async getRevision(id) {
      const pull = await findPull(id);
      return pull === null ? null : toRevision(pull);
    },
    async getRevisionFiles(id): Promise<RevisionFile[]> {
      const pull = await requirePull(id);
      const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
        owner,
        repo,
        pull_number: pull.number,
        per_page: 100,
      });
      return files.map((file) => ({
        path: file.filename,
        status: (FILE_STATUSES as readonly string[]).includes(file.status)
          ? (file.status as RevisionFileStatus)
          : 'changed',
        patch: file.patch ?? null,
      }));
    },
    /**
     * The failed check runs' output on the head (title, summary, the log text the check reported) and
     * their annotations (file:line: message), bounded to the end; commit statuses have a description
     * only. GitHub Actions' full job logs are a zip behind a redirect — not read; `logPath` points there.
     */
    async getChecksOutputTail(id): Promise<ChecksOutputTail | null> {
      return readChecksOutputTail(octokit, { owner, repo }, await requirePull(id));
    },
    async getReviewHistory(id) {
      const pull = await requirePull(id);
      const [reviews, comments, conversation, me] = await Promise.all([
        octokit.paginate(octokit.rest.pulls.listReviews, {
          owner,
          repo,
          pull_number: pull.number,
          per_page: 100,
        }),
        octokit.paginate(octokit.rest.pulls.listReviewComments, {
          owner,
          repo,
          pull_number: pull.number,
          per_page: 100,
        }),
        octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: pull.number,
          per_page: 100,
        }),
        reviewerLogin(),
      ]);
      const outsideDiff = conversation
        .filter((comment) => comment.user?.login === me)
        .flatMap((comment) =>
          parseOutsideDiffComment(comment.body ?? '').map((parsed) => ({ ...parsed, author: me })),
        );
      return {
        reviews: readReviewVerdicts(
          reviews
            .filter((review) => review.state !== 'PENDING')
            .map((review) => ({ author: review.user?.login ?? '', state: review.state, body: review.body })),
          me,
        ),
        inlineComments: [
          ...comments.map((comment) => ({
            path: comment.path,
            line: comment.subject_type === 'file' ? null : (comment.line ?? null),
            author: comment.user.login,
            body: comment.body,
          })),
          ...outsideDiff,
        ],
      };
    },
  };

  const writer: RevisionWriter & Required<Pick<RevisionWriter, 'mergeRevision'>> = {
    async createFromPatch(input) {
      const item = await options.workItems.getWorkItem(input.workItemID);
      if (item === null)
        throw new Error(`Work item ${input.workItemID} not found: cannot create its revision`);
      const pulls = await octokit.paginate(octokit.rest.pulls.list, {
        owner,
        repo,
        state: 'all',
        head: `${owner}:${input.branchName}`,
        per_page: 100,
      });
      const existing = pulls.find((pull) => pull.state === 'open');
      const closedByHand = pulls.find(
        (pull) =>
          pull.state === 'closed' && pull.merged_at === null && MARKER.exec(pull.body ?? '')?.[1] === item.id,
      );
      if (existing === undefined && closedByHand !== undefined) {
        // Closed without merging on GitHub: a decision, not a crash. Neither reopened nor replaced.
        throw new Error(
          `Pull request #${closedByHand.number} for work item ${item.id} was closed on GitHub without merging; not pushing to ${input.branchName} or opening another: reopen the pull request to go on, or close the work item`,
        );
      }
      const title = input.title || item.title;
      await inMirror(async () => {
        if (pushesSinceMaintenance === null || pushesSinceMaintenance >= maintenanceEvery) {
          // What a killed run left (stale apply dirs, branches) goes, and gc keeps the mirror bounded.
          await maintainMirror(options.mirrorDir, await options.defaultBranch());
          pushesSinceMaintenance = 0;
        }
        pushesSinceMaintenance++;
        return pushPatchBranch({
          remote: options.remote,
          mirrorDir: options.mirrorDir,
          defaultBranch: await options.defaultBranch(),
          branchName: input.branchName,
          patch: input.patch,
          commitMessage: title,
          // Whose the branch head is: GitHub's own view of the head always agrees, so that cannot tell.
          ownershipTrailer: `Flotilla-Work-Item: ${item.id}`,
          author: options.commitAuthor,
          expectedHeadSHA: undefined,
          ...(input.base !== undefined && { base: input.base }),
        });
      });
      if (existing !== undefined) return toRevision(await requirePull(String(existing.number)));
      const { data } = await octokit.rest.pulls.create({
        owner,
        repo,
        title,
        head: input.branchName,
        base: await options.defaultBranch(),
        body: `${input.body}\n\n<!-- flotilla:workItem #${item.id} -->`,
        draft: false,
      });
      return toRevision(data);
    },
    async updateBody(id, body) {
      const pull = await requirePull(id);
      const marker = MARKER.exec(pull.body ?? '')?.[0] ?? '';
      await octokit.rest.pulls.update({ owner, repo, pull_number: pull.number, body: `${body}${marker}` });
    },
    async postReview(id, review) {
      return postReview(await requirePull(id), review);
    },
    async updateReview(id, reviewID, review) {
      const pull = await requirePull(id);
      try {
        const earlier = NUMBER.test(reviewID)
          ? await reviewOctokit.rest.pulls.getReview({
              owner,
              repo,
              pull_number: pull.number,
              review_id: Number(reviewID),
            })
          : null;
        if (earlier === null) throw Object.assign(new Error('not a review id'), { status: 404 });
        // GitHub dismisses approvals and change requests only; a COMMENT review is superseded by the new one.
        if (earlier.data.state === 'APPROVED' || earlier.data.state === 'CHANGES_REQUESTED') {
          await reviewOctokit.rest.pulls.dismissReview({
            owner,
            repo,
            pull_number: pull.number,
            review_id: Number(reviewID),
            message: 'Replaced by an updated review',
            event: 'DISMISS',
          });
        }
      } catch (error) {
        if (httpStatusOf(error) !== 404 && NUMBER.test(reviewID)) throw error;
        throw new Error(`Review ${reviewID} not found on pull request #${id} in ${where}`, { cause: error });
      }
      return postReview(pull, review);
    },
    async postComment(id, body) {
      const pull = await requirePull(id);
      await octokit.rest.issues.createComment({ owner, repo, issue_number: pull.number, body });
    },
    async mergeRevision(id, mergeOptions = {}): Promise<MergeRevisionResult> {
      const pull = await requirePull(id);
      if (pull.state !== 'open')
        throw new Error(
          `Revision ${id} is not open (pull request #${id} is ${pull.merged_at ? 'merged' : 'closed'})`,
        );
      const workItemID = MARKER.exec(pull.body ?? '')?.[1];
      const item = workItemID === undefined ? null : await options.workItems.getWorkItem(workItemID);
      if (item === null) throw new Error(`Revision ${id} is not linked to a work item; merge it on GitHub`);
      if (item.status !== 'approved') {
        throw new Error(
          `Work item ${item.id} is not approved (it is ${item.status}); revision ${id} was not merged`,
        );
      }
      // `sha`: the head that passed (the queue's), else the one just read; GitHub refuses (409) a head that moved.
      const { data } = await octokit.rest.pulls
        .merge({
          owner,
          repo,
          pull_number: pull.number,
          merge_method: options.mergeMethod ?? 'merge',
          sha: mergeOptions.expectedHeadSHA ?? pull.head.sha,
        })
        .catch((error: unknown) => {
          throw new Error(
            `GitHub refused to merge revision ${id}: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        });
      await options.workItemWriter.transitionStatus(item.id, 'closed');
      const closed = await options.workItems.getWorkItem(item.id);
      if (closed === null)
        throw new Error(`Work item ${item.id} disappeared after revision ${id} was merged`);
      const method = options.mergeMethod ?? 'merge';
      return {
        workItem: closed,
        strategy: method === 'merge' ? 'merge-commit' : method,
        mergedSHA: data.sha,
      };
    },
  };

  return {
    reader,
    writer,
    async linkedRevisions() {
      const links = new Map<string, string>();
      for (const pull of await openPulls()) {
        const workItemID = MARKER.exec(pull.body ?? '')?.[1];
        if (workItemID !== undefined) links.set(workItemID, String(pull.number));
      }
      return links;
    },
  };
}
