import type { FakeIssue, FakePull } from './build-fake-github-resources.ts';
import type { FakeAnswer, FakeCaller, FakeGitHubStore, FakePullIssue } from './create-fake-github-store.ts';
import { ok } from './create-fake-github-store.ts';
import { checkRunsFor } from './fake-github-check-routes.ts';
import {
  answerEnqueuePullRequest,
  answerPullRequestQueue,
  queueFieldsOf,
} from './fake-github-merge-queue.ts';

/** Open pull requests per page of the open pull requests query. */
const PAGE_SIZE = 50;

/**
 * `POST /graphql`: the fake answers the queries Flotilla sends (the open pull requests, a pull request's
 * queue state, the enqueue mutation), not GraphQL in general.
 */
export async function answerFakeGraphQL(
  store: FakeGitHubStore,
  body: Record<string, unknown>,
  caller: FakeCaller,
): Promise<FakeAnswer> {
  const query = typeof body.query === 'string' ? body.query : '';
  const variables = (body.variables ?? {}) as Record<string, unknown>;
  if (/\bmutation flotillaEnqueuePullRequest\b/.test(query)) {
    return ok(await answerEnqueuePullRequest(store, variables));
  }
  if (/\bquery flotillaPullRequestQueue\b/.test(query)) return ok(answerPullRequestQueue(store, variables));
  if (!/\bquery flotillaOpenPullRequests\b/.test(query)) {
    // The fake answers the queries Flotilla sends, not GraphQL in general.
    return ok({
      errors: [{ message: 'The fake GitHub answers only the queries Flotilla sends' }],
    });
  }
  return ok(await answerOpenPullRequests(store, variables, caller));
}

/** `flotillaOpenPullRequests`: a page of the open pull requests, by number, with reviews and checks. */
async function answerOpenPullRequests(
  store: FakeGitHubStore,
  variables: Record<string, unknown>,
  caller: FakeCaller,
) {
  const { owner, repo, issues } = store;
  if (variables.owner !== owner || variables.repo !== repo) {
    return {
      data: { viewer: { login: caller.user.login }, repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          message: `Could not resolve to a Repository with the name '${String(variables.owner)}/${String(variables.repo)}'.`,
        },
      ],
    };
  }
  const open = [...issues.values()]
    .filter((issue): issue is FakeIssue & { pull: FakePull } => issue.pull !== null && issue.state === 'open')
    .sort((a, b) => a.number - b.number);
  const start =
    typeof variables.cursor === 'string' ? Number(Buffer.from(variables.cursor, 'base64').toString()) : 0;
  const page = open.slice(start, start + PAGE_SIZE);
  const nodes = await Promise.all(page.map((issue) => openPullRequestNode(store, issue)));
  const hasNextPage = start + PAGE_SIZE < open.length;
  return {
    data: {
      viewer: { login: caller.user.login },
      repository: {
        pullRequests: {
          pageInfo: {
            hasNextPage,
            endCursor: page.length === 0 ? null : Buffer.from(String(start + page.length)).toString('base64'),
          },
          nodes,
        },
      },
    },
  };
}

/** One open pull request as the query asks for it: head, queue fields, reviews, the head's check runs. */
async function openPullRequestNode(store: FakeGitHubStore, issue: FakePullIssue) {
  const { owner, repo } = store;
  const head = await store.headSHA(issue.pull);
  const runs = checkRunsFor(store, head);
  return {
    number: issue.number,
    title: issue.title,
    url: `https://github.com/${owner}/${repo}/pull/${issue.number}`,
    body: issue.body ?? '',
    isDraft: issue.pull.draft,
    headRefName: issue.pull.headRef,
    headRefOid: head,
    ...queueFieldsOf(store, issue),
    author: { login: issue.user.login },
    reviews: {
      nodes: issue.pull.reviews.map((review) => ({
        databaseId: review.id,
        state: review.state,
        author: { login: review.user.login },
      })),
    },
    commits: {
      nodes: [
        {
          commit: {
            statusCheckRollup:
              runs.length === 0
                ? null
                : {
                    contexts: {
                      nodes: runs.map((run) => ({
                        __typename: 'CheckRun',
                        name: run.name,
                        status: run.status.toUpperCase(),
                        conclusion: run.conclusion?.toUpperCase() ?? null,
                        detailsUrl: run.details_url,
                        url: run.html_url,
                        title: run.output.title,
                      })),
                    },
                  },
          },
        },
      ],
    },
  };
}
