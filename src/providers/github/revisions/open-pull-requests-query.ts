import type { Pipeline, TrackerQueueEntry } from '../../../domain/index.ts';

/** The last time GitHub's merge queue took the pull request in or out (`timelineItems`). */
export type MergeQueueEvent =
  | { __typename: 'AddedToMergeQueueEvent' }
  | { __typename: 'RemovedFromMergeQueueEvent'; reason: string | null; beforeCommit: { oid: string } | null };

/**
 * The pipeline as GitHub's merge queue (issue #30 §5) makes it: `pending` while the pull request waits in the
 * queue (the checks that decide are the merge group's); red, with GitHub's reason, when the queue took its
 * current head out (checks failed on the merge group, a conflict, or someone removed it) — so an approved
 * item goes back to an implementor saying why. Otherwise the head's own checks.
 */
export function withMergeQueue(
  pipeline: Pipeline,
  pull: Pick<
    OpenPullRequestsPage['repository']['pullRequests']['nodes'][number],
    'headRefOid' | 'mergeQueueEntry' | 'timelineItems'
  >,
): Pipeline {
  if (pull.mergeQueueEntry != null) return { status: 'pending', url: null, reason: null };
  const last = pull.timelineItems?.nodes.at(-1);
  if (last?.__typename === 'RemovedFromMergeQueueEvent' && last.beforeCommit?.oid === pull.headRefOid) {
    return {
      status: 'failure',
      url: pipeline.url,
      reason: `removed from GitHub's merge queue: ${last.reason ?? 'no reason given'}`,
    };
  }
  return pipeline;
}

/**
 * The pull request's entry in GitHub's merge queue as the revision carries it (`Revision.trackerQueue`), or
 * nothing when it is not queued: the key is left out then, so an unqueued revision reads as before.
 */
export function trackerQueueOf(
  pull: Pick<OpenPullRequestsPage['repository']['pullRequests']['nodes'][number], 'mergeQueueEntry'>,
): { trackerQueue?: TrackerQueueEntry } {
  const entry = pull.mergeQueueEntry;
  if (entry == null) return {};
  return {
    trackerQueue: {
      position: entry.position,
      state: entry.state,
      enqueuedAt: entry.enqueuedAt ?? '',
      estimatedTimeToMerge: entry.estimatedTimeToMerge ?? null,
    },
  };
}

/** Exported for the live drift check (`test/providers/real-github-drift.github-live.ts`). */
export const OPEN_PULL_REQUESTS_QUERY = `query flotillaOpenPullRequests($owner: String!, $repo: String!, $cursor: String) {
  viewer { login }
  repository(owner: $owner, name: $repo) {
    pullRequests(states: OPEN, first: 50, after: $cursor, orderBy: { field: CREATED_AT, direction: ASC }) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number title url body isDraft headRefName headRefOid
        mergeQueueEntry { state position enqueuedAt estimatedTimeToMerge }
        timelineItems(last: 1, itemTypes: [ADDED_TO_MERGE_QUEUE_EVENT, REMOVED_FROM_MERGE_QUEUE_EVENT]) {
          nodes { __typename ... on RemovedFromMergeQueueEvent { reason beforeCommit { oid } } }
        }
        author { login }
        reviews(last: 100) { nodes { databaseId state author { login } } }
        commits(last: 1) {
          nodes {
            commit {
              statusCheckRollup {
                contexts(first: 100) {
                  nodes {
                    __typename
                    ... on CheckRun { name status conclusion detailsUrl url title }
                    ... on StatusContext { context state targetUrl description }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}`;

export type RollupContext =
  | {
      __typename: 'CheckRun';
      name: string;
      status: string;
      conclusion: string | null;
      detailsUrl: string | null;
      url: string | null;
      title: string | null;
    }
  | {
      __typename: 'StatusContext';
      context: string;
      state: string;
      targetUrl: string | null;
      description: string | null;
    };

export interface OpenPullRequestsPage {
  viewer: { login: string };
  repository: {
    pullRequests: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      nodes: {
        number: number;
        title: string;
        url: string;
        body: string | null;
        isDraft: boolean;
        headRefName: string;
        headRefOid: string;
        mergeQueueEntry?: {
          state: string;
          position: number;
          enqueuedAt?: string;
          estimatedTimeToMerge?: number | null;
        } | null;
        timelineItems?: { nodes: MergeQueueEvent[] };
        author: { login: string } | null;
        reviews: { nodes: { databaseId: number | null; state: string; author: { login: string } | null }[] };
        commits: {
          nodes: { commit: { statusCheckRollup: { contexts: { nodes: RollupContext[] } } | null } }[];
        };
      }[];
    };
  };
}
