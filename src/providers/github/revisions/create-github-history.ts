import type {
  HistoryReader,
  ItemHistoryReview,
  ItemReviewState,
  RevisionReader,
  WorkItemReader,
} from '../../types.ts';
import type { GitHubOctokit } from '../client/create-github-client.ts';
import { readChecksOutputTail } from './read-checks-output-tail.ts';
import { readReviewVerdict, readReviewVerdicts } from './review-verdict-marker.ts';

export interface GitHubHistoryOptions {
  octokit: GitHubOctokit;
  owner: string;
  repo: string;
  workItems: Pick<WorkItemReader, 'getWorkItem'>;
  revisions: Pick<RevisionReader, 'getRevision'>;
  /** Whose `COMMENT` reviews carry Flotilla's verdicts (the reviewing identity). */
  reviewerLogin: () => Promise<string>;
}

const REVIEW_STATES: readonly string[] = ['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED'];

/**
 * An issue's history as GitHub keeps it (Provider.history): its labels and every comment
 * (`GET /repos/{o}/{r}/issues/{n}/comments`), its open pull request with every review
 * (`GET …/pulls/{n}/reviews`, Flotilla's verdict `COMMENT` reviews read as their verdict) and their line
 * comments (`GET …/pulls/{n}/comments`), and the check runs' output of any pull request head.
 */
export function createGitHubHistory(options: GitHubHistoryOptions): HistoryReader {
  const { octokit, owner, repo } = options;

  async function readReviews(pullNumber: number): Promise<ItemHistoryReview[]> {
    const [reviews, lineComments, reviewer] = await Promise.all([
      octokit.paginate(octokit.rest.pulls.listReviews, {
        owner,
        repo,
        pull_number: pullNumber,
        per_page: 100,
      }),
      octokit.paginate(octokit.rest.pulls.listReviewComments, {
        owner,
        repo,
        pull_number: pullNumber,
        per_page: 100,
      }),
      options.reviewerLogin(),
    ]);
    const posted = reviews
      .filter((review) => REVIEW_STATES.includes(review.state))
      .map((review) => {
        const read = readReviewVerdict({ state: review.state, body: review.body });
        return { review, author: review.user?.login ?? '', state: read.state, body: read.body };
      });
    let round = 0;
    return readReviewVerdicts(posted, reviewer).map(({ review, author, state, body }, index) => {
      const said = posted[index]?.state ?? state;
      const verdict = said === 'DISMISSED' ? null : (said as Exclude<ItemReviewState, 'DISMISSED'>);
      const isVerdict = verdict === 'APPROVED' || verdict === 'CHANGES_REQUESTED';
      if (isVerdict) round += 1;
      return {
        id: String(review.id),
        author,
        state: state as ItemReviewState,
        verdict,
        round: isVerdict ? round : null,
        body,
        comments: lineComments
          .filter((comment) => comment.pull_request_review_id === review.id)
          .map((comment) => ({
            path: comment.path,
            line: comment.subject_type === 'file' ? null : (comment.line ?? null),
            body: comment.body,
          })),
        createdAt: new Date(review.submitted_at ?? 0).toISOString(),
      };
    });
  }

  return {
    async readItemHistory(id) {
      const item = await options.workItems.getWorkItem(id);
      if (item === null)
        throw new Error(`work item #${id} does not exist (no issue #${id} in ${owner}/${repo})`);
      const [issue, comments] = await Promise.all([
        octokit.rest.issues.get({ owner, repo, issue_number: Number(id) }),
        octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: Number(id),
          per_page: 100,
        }),
      ]);
      const revision =
        item.linkedRevision === null ? null : await options.revisions.getRevision(item.linkedRevision);
      return {
        labels: issue.data.labels.flatMap((label) => {
          const name = typeof label === 'string' ? label : label.name;
          return name ? [name] : [];
        }),
        comments: comments.map((comment) => ({
          id: String(comment.id),
          author: comment.user?.login ?? '',
          body: comment.body ?? '',
          createdAt: new Date(comment.created_at).toISOString(),
        })),
        revision:
          revision === null
            ? null
            : { ...revision, state: 'open', reviews: await readReviews(Number(revision.id)) },
      };
    },
    async readChecksLog(revisionID) {
      const revision = await options.revisions.getRevision(revisionID);
      if (revision === null) return null;
      const pull = { head: { sha: revision.headSHA }, html_url: revision.url ?? '' };
      return readChecksOutputTail(octokit, { owner, repo }, pull, { which: 'all' });
    },
  };
}
