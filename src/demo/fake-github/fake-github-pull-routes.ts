import { listChangedFiles } from '../../providers/shared/list-changed-files.ts';
import { type FakeIssue, type FakePull, githubTimestamp } from './build-fake-github-resources.ts';
import { type FakeGitHubStore, type FakeRoute, HttpError, ok, route } from './create-fake-github-store.ts';
import { checkRunsFor } from './fake-github-check-routes.ts';
import {
  answerEnqueuePullRequest,
  answerPullRequestQueue,
  closeLinkedIssues,
  queueFieldsOf,
} from './fake-github-merge-queue.ts';
import { stringOrNull } from './read-fake-github-body.ts';

/**
 * Pull requests: the open pull requests GraphQL query, listing, opening, reading (mergeability), editing, merging and their files.
 * A merge into the default branch closes the issues the body names with a closing keyword
 * (MERGE_QUEUE_DOCS.closingKeywords); the GraphQL merge queue parts are in fake-github-merge-queue.ts.
 */
export function buildFakePullRoutes(store: FakeGitHubStore): FakeRoute[] {
  const {
    owner,
    repo,
    repoPath,
    git,
    issues,
    urls,
    requirePull,
    createIssue,
    setState,
    headSHA,
    pullJSON,
    paginate,
  } = store;
  return [
    route('POST', '/graphql', async (_params, _query, body, caller) => {
      const query = typeof body.query === 'string' ? body.query : '';
      const variables = (body.variables ?? {}) as Record<string, unknown>;
      if (/\bmutation flotillaEnqueuePullRequest\b/.test(query)) {
        return ok(await answerEnqueuePullRequest(store, variables));
      }
      if (/\bquery flotillaPullRequestQueue\b/.test(query)) {
        return ok(answerPullRequestQueue(store, variables));
      }
      if (!/\bquery flotillaOpenPullRequests\b/.test(query)) {
        // The fake answers the queries Flotilla sends, not GraphQL in general.
        return ok({
          errors: [{ message: 'The fake GitHub answers only the queries Flotilla sends' }],
        });
      }
      if (variables.owner !== owner || variables.repo !== repo) {
        return ok({
          data: { viewer: { login: caller.user.login }, repository: null },
          errors: [
            {
              type: 'NOT_FOUND',
              message: `Could not resolve to a Repository with the name '${String(variables.owner)}/${String(variables.repo)}'.`,
            },
          ],
        });
      }
      const open = [...issues.values()]
        .filter(
          (issue): issue is FakeIssue & { pull: FakePull } => issue.pull !== null && issue.state === 'open',
        )
        .sort((a, b) => a.number - b.number);
      const start =
        typeof variables.cursor === 'string' ? Number(Buffer.from(variables.cursor, 'base64').toString()) : 0;
      const page = open.slice(start, start + 50);
      const nodes = await Promise.all(
        page.map(async (issue) => {
          const head = await headSHA(issue.pull);
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
        }),
      );
      const hasNextPage = start + 50 < open.length;
      return ok({
        data: {
          viewer: { login: caller.user.login },
          repository: {
            pullRequests: {
              pageInfo: {
                hasNextPage,
                endCursor:
                  page.length === 0 ? null : Buffer.from(String(start + page.length)).toString('base64'),
              },
              nodes,
            },
          },
        },
      });
    }),
    route('GET', `${repoPath}/pulls`, async (_params, query) => {
      const state = query.get('state') ?? 'open';
      const head = query.get('head');
      const listed = [...issues.values()]
        .filter((issue): issue is FakeIssue & { pull: FakePull } => issue.pull !== null)
        .filter((issue) => state === 'all' || issue.state === state)
        .filter((issue) => head === null || `${owner}:${issue.pull.headRef}` === head)
        .sort((a, b) => (query.get('direction') === 'asc' ? a.number - b.number : b.number - a.number));
      const answer = paginate(listed, query, `${repoPath}/pulls`, (issue) => issue);
      return { ...answer, body: await Promise.all((answer.body as typeof listed).map(pullJSON)) };
    }),
    route('POST', `${repoPath}/pulls`, async (_params, _query, body, caller) => {
      const head = stringOrNull(body.head) ?? '';
      const base = stringOrNull(body.base) ?? '';
      const invalid = (message: string): never => {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'PullRequest', code: 'custom', message }],
        });
      };
      if (typeof body.title !== 'string' || body.title === '') invalid('title is missing');
      if ((await git.resolveCommit(`refs/heads/${head}`)) === null) invalid(`head ${head} does not exist`);
      if ((await git.resolveCommit(`refs/heads/${base}`)) === null) invalid(`base ${base} does not exist`);
      const open = [...issues.values()].some(
        (existing) => existing.pull?.headRef === head && existing.state === 'open',
      );
      if (open) invalid(`A pull request already exists for ${owner}:${head}.`);
      const issue = createIssue({ title: String(body.title), body: stringOrNull(body.body) }, caller.user);
      issue.pull = {
        headRef: head,
        baseRef: base,
        draft: body.draft === true,
        mergedAt: null,
        reviews: [],
        reviewComments: [],
      };
      const created = await pullJSON(issue as FakeIssue & { pull: FakePull });
      // Mergeability is computed in the background after the pull request is opened: not known yet.
      issue.pull.mergeableFor = undefined;
      return ok(created, 201);
    }),
    route('GET', `${repoPath}/pulls/(\\d+)`, async ([pullNumber]) =>
      ok(await pullJSON(requirePull(pullNumber))),
    ),
    route('PATCH', `${repoPath}/pulls/(\\d+)`, async ([pullNumber], _query, body, caller) => {
      const issue = requirePull(pullNumber);
      if (typeof body.title === 'string') issue.title = body.title;
      if ('body' in body) issue.body = stringOrNull(body.body);
      if (body.state === 'open' || body.state === 'closed') setState(issue, body.state, caller.user);
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(await pullJSON(issue));
    }),
    route('PUT', `${repoPath}/pulls/(\\d+)/merge`, async ([pullNumber], _query, body, caller) => {
      const issue = requirePull(pullNumber);
      if (issue.state !== 'open') throw new HttpError(405, 'Pull Request is not mergeable');
      const head = await headSHA(issue.pull);
      if (typeof body.sha === 'string' && body.sha !== head) {
        throw new HttpError(409, 'Head branch was modified. Review and try the merge again.');
      }
      // Branch protection requiring approving reviews: only approvals still standing count (the author cannot
      // give one, see the review routes); GitHub answers 405 with the rule it enforces.
      const required = store.requiredApprovingReviews;
      const approvals = issue.pull.reviews.filter((review) => review.state === 'APPROVED').length;
      if (approvals < required) {
        throw new HttpError(
          405,
          `At least ${required} approving review${required === 1 ? ' is' : 's are'} required by reviewers with write access.`,
        );
      }
      if (store.mergeQueue && issue.pull.baseRef === store.defaultBranch) {
        // A ruleset requires the merge queue (MERGE_QUEUE_DOCS.mergeQueue): no direct merge.
        throw new HttpError(
          405,
          'Repository rule violations found\n\nChanges must be made through the merge queue',
        );
      }
      if (body.merge_method !== undefined && body.merge_method !== 'merge') {
        throw new HttpError(405, 'The fake GitHub merges with merge commits only');
      }
      const message = `Merge pull request #${issue.number} from ${owner}/${issue.pull.headRef}\n\n${issue.title}`;
      const sha = await git.mergeInto(issue.pull.baseRef, head, message);
      if (sha === null) throw new HttpError(405, 'Pull Request is not mergeable');
      issue.pull.mergedAt = githubTimestamp(Date.now());
      setState(issue, 'closed', caller.user);
      closeLinkedIssues(store, issue, caller.user);
      return ok({ sha, merged: true, message: 'Pull Request successfully merged' });
    }),
    route('GET', `${repoPath}/pulls/(\\d+)/files`, async ([pullNumber], query) => {
      const issue = requirePull(pullNumber);
      const head = await headSHA(issue.pull);
      const base = (await git.resolveCommit(`refs/heads/${issue.pull.baseRef}`)) ?? head;
      const mergeBase = await git.mergeBase(base, head);
      const files = await listChangedFiles(git.path, mergeBase ?? base, head);
      return paginate(files, query, `${repoPath}/pulls/${issue.number}/files`, (file) => ({
        sha: head,
        filename: file.path,
        status: file.status,
        additions: (file.patch ?? '').split('\n').filter((line) => line.startsWith('+')).length,
        deletions: (file.patch ?? '').split('\n').filter((line) => line.startsWith('-')).length,
        changes: (file.patch ?? '').split('\n').filter((line) => /^[+-]/.test(line)).length,
        blob_url: `https://github.com/${owner}/${repo}/blob/${head}/${file.path}`,
        raw_url: `https://github.com/${owner}/${repo}/raw/${head}/${file.path}`,
        contents_url: `${urls().api}${repoPath}/contents/${file.path}?ref=${head}`,
        ...(file.patch === null ? {} : { patch: file.patch }),
      }));
    }),
  ];
}
