/** Exported for the live drift check (`test/providers/real-github-drift.github-live.ts`). */
export const OPEN_PULL_REQUESTS_QUERY = `query flotillaOpenPullRequests($owner: String!, $repo: String!, $cursor: String) {
  viewer { login }
  repository(owner: $owner, name: $repo) {
    pullRequests(states: OPEN, first: 50, after: $cursor, orderBy: { field: CREATED_AT, direction: ASC }) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number title url body isDraft headRefName headRefOid
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
        author: { login: string } | null;
        reviews: { nodes: { databaseId: number | null; state: string; author: { login: string } | null }[] };
        commits: {
          nodes: { commit: { statusCheckRollup: { contexts: { nodes: RollupContext[] } } | null } }[];
        };
      }[];
    };
  };
}
