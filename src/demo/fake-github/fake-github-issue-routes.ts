import {
  buildComment,
  buildLabel,
  buildRepository,
  buildUser,
  type FakeComment,
  type FakeLabel,
  githubTimestamp,
} from './build-fake-github-resources.ts';
import { type FakeGitHubStore, type FakeRoute, HttpError, ok, route } from './create-fake-github-store.ts';
import { stringList, stringOrNull } from './read-fake-github-body.ts';

/**
 * The authenticated user, the repository, issues, their labels, comments and native dependencies, and the label set.
 */
export function buildFakeIssueRoutes(store: FakeGitHubStore): FakeRoute[] {
  const {
    owner,
    repo,
    repoPath,
    defaultBranch,
    issues,
    labels,
    urls,
    nextID,
    labelRecord,
    issueJSON,
    requireIssue,
    createIssue,
    setState,
    paginate,
  } = store;
  const requireDependencies = () => {
    if (!store.issueDependencies) throw new HttpError(404, 'Not Found');
  };
  return [
    route('GET', '/user', async (_params, _query, _body, caller) => ok(buildUser(caller.user, urls()))),
    route('GET', repoPath, async () =>
      ok(buildRepository({ id: 1, owner: { login: owner, id: 3 }, name: repo, defaultBranch }, urls())),
    ),
    route('GET', `${repoPath}/issues`, async (_params, query) => {
      const state = query.get('state') ?? 'open';
      const wanted = (query.get('labels') ?? '').split(',').filter(Boolean);
      const ascending = query.get('direction') === 'asc';
      const listed = [...issues.values()]
        .filter((issue) => state === 'all' || issue.state === state)
        .filter((issue) => wanted.every((label) => issue.labels.includes(label)))
        .sort((a, b) => (ascending ? a.number - b.number : b.number - a.number));
      return paginate(listed, query, `${repoPath}/issues`, (issue) => issueJSON(issue, false));
    }),
    route('POST', `${repoPath}/issues`, async (_params, _query, body, caller) => {
      if (typeof body.title !== 'string' || body.title === '') {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
        });
      }
      const issue = createIssue(
        { title: body.title, body: stringOrNull(body.body), labels: stringList(body.labels) },
        caller.user,
      );
      return ok(issueJSON(issue, true), 201);
    }),
    route('GET', `${repoPath}/issues/(\\d+)`, async ([issueNumber]) =>
      ok(issueJSON(requireIssue(issueNumber), true)),
    ),
    route('PATCH', `${repoPath}/issues/(\\d+)`, async ([issueNumber], _query, body, caller) => {
      const issue = requireIssue(issueNumber);
      if (typeof body.title === 'string') issue.title = body.title;
      if ('body' in body) issue.body = stringOrNull(body.body);
      if (Array.isArray(body.labels)) issue.labels = [...new Set(stringList(body.labels))];
      if (body.state === 'open' || body.state === 'closed') {
        setState(issue, body.state, caller.user, stringOrNull(body.state_reason) ?? undefined);
      }
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(issueJSON(issue, true));
    }),
    route('POST', `${repoPath}/issues/(\\d+)/labels`, async ([issueNumber], _query, body) => {
      const issue = requireIssue(issueNumber);
      issue.labels = [...new Set([...issue.labels, ...stringList(body.labels)])];
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(issue.labels.map((name) => buildLabel(labelRecord(name), urls())));
    }),
    route('DELETE', `${repoPath}/issues/(\\d+)/labels/(.+)`, async ([issueNumber, name = '']) => {
      const issue = requireIssue(issueNumber);
      if (!issue.labels.includes(name)) throw new HttpError(404, 'Label does not exist');
      issue.labels = issue.labels.filter((label) => label !== name);
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(issue.labels.map((label) => buildLabel(labelRecord(label), urls())));
    }),
    route('GET', `${repoPath}/issues/(\\d+)/dependencies/blocked_by`, async ([issueNumber], query) => {
      requireDependencies();
      const issue = requireIssue(issueNumber);
      const blockers = issue.blockedBy.flatMap((number) => issues.get(number) ?? []);
      return paginate(
        blockers,
        query,
        `${repoPath}/issues/${issue.number}/dependencies/blocked_by`,
        (blocker) => issueJSON(blocker, false),
      );
    }),
    route(
      'POST',
      `${repoPath}/issues/(\\d+)/dependencies/blocked_by`,
      async ([issueNumber], _query, body) => {
        requireDependencies();
        const issue = requireIssue(issueNumber);
        const blocker = [...issues.values()].find((candidate) => candidate.id === body.issue_id);
        if (blocker === undefined) throw new HttpError(404, 'Not Found');
        if (blocker.number === issue.number || issue.blockedBy.includes(blocker.number)) {
          throw new HttpError(422, 'Validation Failed', {
            errors: [{ resource: 'IssueDependency', code: 'invalid', field: 'issue_id' }],
          });
        }
        issue.blockedBy.push(blocker.number);
        issue.updatedAt = githubTimestamp(Date.now());
        return ok(issueJSON(blocker, true), 201);
      },
    ),
    route('GET', `${repoPath}/issues/(\\d+)/comments`, async ([issueNumber], query) => {
      const issue = requireIssue(issueNumber);
      // `since`: only comments last updated at or after it (ISO 8601), oldest first as always.
      const since = query.get('since');
      const sinceMs = since === null ? null : Date.parse(since);
      if (sinceMs !== null && Number.isNaN(sinceMs)) {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'IssueComment', code: 'invalid', field: 'since' }],
        });
      }
      const listed = issue.comments.filter(
        (comment) => sinceMs === null || Date.parse(comment.updatedAt ?? comment.createdAt) >= sinceMs,
      );
      return paginate(listed, query, `${repoPath}/issues/${issue.number}/comments`, (comment) =>
        buildComment(comment, issue.number, urls()),
      );
    }),
    route('POST', `${repoPath}/issues/(\\d+)/comments`, async ([issueNumber], _query, body, caller) => {
      const issue = requireIssue(issueNumber);
      if (typeof body.body !== 'string' || body.body === '') {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
        });
      }
      const comment: FakeComment = {
        id: nextID(),
        body: body.body,
        user: caller.user,
        // An App's bot is no member or collaborator of the repository; the token's user owns it.
        authorAssociation: caller.association ?? (caller.user.type === 'Bot' ? 'NONE' : 'OWNER'),
        createdAt: githubTimestamp(Date.now()),
      };
      issue.comments.push(comment);
      issue.updatedAt = comment.createdAt;
      return ok(buildComment(comment, issue.number, urls()), 201);
    }),
    route('GET', `${repoPath}/labels`, async (_params, query) =>
      paginate([...labels.values()], query, `${repoPath}/labels`, (label) => buildLabel(label, urls())),
    ),
    route('POST', `${repoPath}/labels`, async (_params, _query, body) => {
      if (typeof body.name !== 'string' || body.name === '' || labels.has(body.name)) {
        throw new HttpError(422, 'Validation Failed', {
          errors: [
            {
              resource: 'Label',
              code: typeof body.name === 'string' ? 'already_exists' : 'missing_field',
              field: 'name',
            },
          ],
        });
      }
      const label: FakeLabel = {
        id: nextID(),
        name: body.name,
        color: typeof body.color === 'string' ? body.color : 'ededed',
        description: stringOrNull(body.description),
      };
      labels.set(label.name, label);
      return ok(buildLabel(label, urls()), 201);
    }),
    route('PATCH', `${repoPath}/labels/([^/]+)`, async ([name = ''], _query, body) => {
      const label = labels.get(decodeURIComponent(name));
      if (label === undefined) throw new HttpError(404, 'Not Found');
      if (typeof body.color === 'string') label.color = body.color;
      if (body.description !== undefined) label.description = stringOrNull(body.description);
      return ok(buildLabel(label, urls()));
    }),
  ];
}
