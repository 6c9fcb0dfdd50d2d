import { createHash, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listChangedFiles } from '../../shared/list-changed-files.ts';
import {
  buildComment,
  buildIssue,
  buildLabel,
  buildPull,
  buildRef,
  buildRepository,
  buildReview,
  buildReviewComment,
  buildUser,
  type FakeAuthorAssociation,
  type FakeComment,
  type FakeIssue,
  type FakeLabel,
  type FakePull,
  type FakeUrls,
  type FakeUser,
  githubTimestamp,
} from './build-fake-github-resources.ts';
import { createFakeGitHubGit, type FakeGitHubGit } from './create-fake-github-git.ts';

export interface FakeGitHubOptions {
  owner?: string;
  repo?: string;
  defaultBranch?: string;
  /** The token the fake accepts; anything else is answered 401 Bad credentials. */
  token: string;
  /** Login of the token's user (the engine's author). Default `flotilla-bot`. */
  login?: string;
  /** Files of the default branch's first commit. */
  baseFiles?: Readonly<Record<string, string>>;
  /** Primary budget per hour. Default 5000. */
  rateLimit?: number;
  /**
   * The repository's CI: `none` (no checks at all), or one `test` check run queued on every commit until
   * `settleChecks()` completes it, passing or failing. Default `none`.
   */
  ci?: 'none' | 'passing' | 'failing';
  /**
   * Native issue dependencies ("blocked by"): GitHub.com has them; `false` is a server without them
   * (the endpoints answer 404 and issues carry no `issue_dependencies_summary`). Default true.
   */
  issueDependencies?: boolean;
  /**
   * A GitHub App installed on the repository: `POST /app/installations/{id}/access_tokens` and `GET /app`
   * take a JWT signed with the App's key (RS256, verified with `publicKey`), and the installation tokens
   * made there are accepted until they expire (`tokenLifetimeSeconds`, GitHub's is 3600).
   */
  app?: {
    id: number;
    slug: string;
    installationId: number;
    publicKey: string;
    tokenLifetimeSeconds?: number;
  };
}

/** One HTTP exchange as the fake saw it. */
export interface FakeGitHubRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  status: number;
  /** Whether it counted against a rate limit (304s and injected faults do not). */
  counted: boolean;
  /** The budget it counted against: `core` (REST) or `graphql` (a separate one on GitHub). */
  resource: 'core' | 'graphql';
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** An answer the fake gives instead of the real one, to the next matching requests. */
export type FakeGitHubFault =
  | { kind: 'secondary-rate-limit'; retryAfterSeconds: number }
  | { kind: 'server-error'; status: 500 | 502 | 503 | 504 }
  | { kind: 'bad-credentials' };

export interface FakeGitHub {
  /** The REST API root to give the client as `apiUrl`. */
  apiUrl: string;
  owner: string;
  repo: string;
  login: string;
  /** Where git pushes go (the bare repository behind the API). */
  gitUrl: string;
  git: FakeGitHubGit;
  requests: FakeGitHubRequest[];
  /** `times` requests (default 1) matching `method`/`path` (default: any) get the fault. */
  injectFault(fault: FakeGitHubFault, match?: { times?: number; method?: string; path?: RegExp }): void;
  /**
   * Runs `action` just before the fake handles the next request matching `method`/`path` — what a human
   * does on github.com between two of Flotilla's requests (a race, deterministically).
   */
  interleave(match: { method?: string; path?: RegExp }, action: () => void | Promise<void>): void;
  /** Installation tokens the fake made (App authentication), oldest first. */
  installationTokens: { token: string; expiresAt: number }[];
  /** Sets the primary budget's remaining points and the seconds until it resets. */
  setRateLimit(state: { remaining: number; resetInSeconds: number }): void;
  /** What a human does on github.com (no request is recorded). */
  human: {
    closeIssue(issueNumber: number): void;
    setIssueLabels(issueNumber: number, labels: string[]): void;
    issueLabels(issueNumber: number): string[];
    /** Sets an issue's native "blocked by" dependencies (issue numbers). */
    setBlockedBy(issueNumber: number, blockers: number[]): void;
    closePullRequest(pullNumber: number): void;
    /** Replaces the branch's history with one new commit on the default branch (a `git push --force`). */
    forcePush(branch: string, files: Readonly<Record<string, string>>): Promise<string>;
    createIssue(fields: { title: string; body?: string; labels?: string[] }): number;
    commitFiles(files: Readonly<Record<string, string>>, message?: string): Promise<string>;
    /** Commits the files on a new branch from the default branch and opens a pull request for it. */
    openPullRequest(fields: {
      branch: string;
      files: Readonly<Record<string, string>>;
      title: string;
      body?: string;
      draft?: boolean;
    }): Promise<number>;
    /** A human marks a pull request as a draft ("Convert to draft") or ready for review. */
    setDraft(pullNumber: number, draft: boolean): void;
    /**
     * Someone comments on an issue on github.com: by default the repository's owner (`octocat`, `OWNER`);
     * `association` is the author's `author_association` (`NONE`: a drive-by user on a public repository),
     * `bot` makes the author a bot account (`type: Bot`), `at` backdates it (ms since the epoch). Returns
     * the comment's id.
     */
    comment(
      issueNumber: number,
      body: string,
      fields?: { login?: string; association?: FakeAuthorAssociation; bot?: boolean; at?: number },
    ): number;
  };
  issueComments(issueNumber: number): string[];
  /** CI finishes: the check run queued on every open pull request's head completes (see `ci`). */
  settleChecks(): Promise<void>;
  close(): Promise<void>;
}

const HUMAN: FakeUser = { login: 'octocat', id: 1 };
/** The failing CI's check run output (`output.text`) and annotations, as GitHub Actions reports them. */
export const FAILING_CHECK_LOG =
  'Run npm test\n> vitest run\n FAIL  src/a.test.ts > adds\nAssertionError: expected 1, got 2\n Tests  1 failed | 4 passed';
export const FAILING_CHECK_ANNOTATIONS = [
  {
    path: 'src/a.test.ts',
    start_line: 3,
    end_line: 3,
    annotation_level: 'failure',
    title: 'src/a.test.ts > adds',
    message: 'AssertionError: expected 1, got 2',
  },
];
const DOCS = 'https://docs.github.com/rest';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * A GitHub REST API on 127.0.0.1 for tests and demos: issues, labels, comments, and the git data of a real
 * bare repository (refs, trees, blobs). Like api.github.com it sends weak ETags and answers a matching
 * `If-None-Match` with 304 (not counted against the budget), paginates with `Link` headers, reports the
 * budget in `x-ratelimit-*` headers and answers 403 once it is spent, and rejects a wrong token with 401.
 * Faults (a secondary limit with `retry-after`, 5xx, 401) are injected per request.
 */
export async function createFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'widgets';
  const defaultBranch = options.defaultBranch ?? 'main';
  const bot: FakeUser = {
    login: options.login ?? (options.app === undefined ? 'flotilla-bot' : `${options.app.slug}[bot]`),
    id: 2,
    // An App's installation token writes as the App's bot account.
    ...(options.app !== undefined && { type: 'Bot' as const }),
  };
  const installationTokens: { token: string; expiresAt: number }[] = [];
  const limit = options.rateLimit ?? 5000;
  const git = await createFakeGitHubGit(defaultBranch);
  await git.commitFiles(defaultBranch, options.baseFiles ?? { 'README.md': '# Fake\n' }, 'Initial commit');

  const issues = new Map<number, FakeIssue>();
  const labels = new Map<string, FakeLabel>();
  const faults: { fault: FakeGitHubFault; times: number; method?: string; path?: RegExp }[] = [];
  const interleaved: { method?: string; path?: RegExp; action: () => void | Promise<void> }[] = [];
  const requests: FakeGitHubRequest[] = [];
  const ci = options.ci ?? 'none';
  const settledChecks = new Set<string>();
  let nextNumber = 1;
  let nextID = 1000;
  let remaining = limit;
  let graphqlRemaining = limit;
  let resetAt = Math.floor(Date.now() / 1000) + 3600;
  let urls: FakeUrls = { api: '', fullName: `${owner}/${repo}` };

  function labelRecord(name: string): FakeLabel {
    let label = labels.get(name);
    if (label === undefined) {
      // GitHub creates a label that does not exist yet when an issue is given it.
      label = { id: nextID++, name, color: 'ededed', description: null };
      labels.set(name, label);
    }
    return label;
  }
  const issueDependencies = options.issueDependencies ?? true;
  const issueJSON = (issue: FakeIssue, detail: boolean) =>
    buildIssue(issue, issue.labels.map(labelRecord), urls, detail, dependenciesSummary(issue));
  function dependenciesSummary(issue: FakeIssue) {
    if (!issueDependencies) return null;
    const blockers = issue.blockedBy.map((number) => issues.get(number));
    const blocking = [...issues.values()].filter((other) => other.blockedBy.includes(issue.number));
    return {
      blocked_by: blockers.filter((blocker) => blocker?.state === 'open').length,
      blocking: blocking.filter((other) => other.state === 'open').length,
      total_blocked_by: blockers.length,
      total_blocking: blocking.length,
    };
  }
  function requireDependencies(): void {
    if (!issueDependencies) throw new HttpError(404, 'Not Found');
  }
  function requireIssue(issueNumber: string | undefined): FakeIssue {
    const issue = issues.get(Number(issueNumber));
    if (issue === undefined) throw new HttpError(404, 'Not Found');
    return issue;
  }
  function setState(issue: FakeIssue, state: 'open' | 'closed', by: FakeUser, reason?: string): void {
    if (state === issue.state) return;
    issue.state = state;
    issue.closedAt = state === 'closed' ? githubTimestamp(Date.now()) : null;
    issue.closedBy = state === 'closed' ? by : issue.closedBy;
    issue.stateReason =
      state === 'closed' ? (reason === 'not_planned' ? 'not_planned' : 'completed') : 'reopened';
  }
  function createIssue(fields: { title: string; body?: string | null; labels?: string[] }, user: FakeUser) {
    const now = githubTimestamp(Date.now());
    const issue: FakeIssue = {
      number: nextNumber++,
      id: nextID++,
      title: fields.title,
      body: fields.body ?? null,
      labels: [...new Set(fields.labels ?? [])],
      state: 'open',
      stateReason: null,
      user,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedBy: null,
      comments: [],
      pull: null,
      blockedBy: [],
    };
    issues.set(issue.number, issue);
    return issue;
  }

  function requirePull(pullNumber: string | undefined): FakeIssue & { pull: FakePull } {
    const issue = issues.get(Number(pullNumber));
    if (issue?.pull == null) throw new HttpError(404, 'Not Found');
    return issue as FakeIssue & { pull: FakePull };
  }
  async function headSHA(pull: FakePull): Promise<string> {
    return (await git.resolveCommit(`refs/heads/${pull.headRef}`)) ?? '0'.repeat(40);
  }
  async function pullJSON(issue: FakeIssue & { pull: FakePull }) {
    const base = (await git.resolveCommit(`refs/heads/${issue.pull.baseRef}`)) ?? '0'.repeat(40);
    return buildPull(issue, { head: await headSHA(issue.pull), base }, urls);
  }
  async function changedPaths(pull: FakePull): Promise<Set<string>> {
    const head = await headSHA(pull);
    const base = (await git.resolveCommit(`refs/heads/${pull.baseRef}`)) ?? head;
    const files = await listChangedFiles(git.path, (await git.mergeBase(base, head)) ?? base, head);
    return new Set(files.map((file) => file.path));
  }
  function checkRunsFor(sha: string) {
    if (ci === 'none') return [];
    const done = settledChecks.has(sha);
    const id = Number.parseInt(sha.slice(0, 8), 16);
    return [
      {
        id,
        node_id: Buffer.from(`0:CheckRun${id}`).toString('base64'),
        head_sha: sha,
        name: 'test',
        status: done ? 'completed' : 'queued',
        conclusion: done ? (ci === 'passing' ? 'success' : 'failure') : null,
        started_at: null,
        completed_at: done ? githubTimestamp(Date.now()) : null,
        html_url: `https://github.com/${owner}/${repo}/runs/${id}`,
        details_url: `https://github.com/${owner}/${repo}/actions/runs/${id}`,
        output: {
          title: done ? (ci === 'passing' ? 'All tests passed' : '1 test failed') : null,
          summary: done ? (ci === 'passing' ? 'ok' : 'expected 1, got 2') : null,
          text: done && ci === 'failing' ? FAILING_CHECK_LOG : null,
          annotations_count: done && ci === 'failing' ? FAILING_CHECK_ANNOTATIONS.length : 0,
        },
        app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
      },
    ];
  }

  type Route = {
    method: string;
    pattern: RegExp;
    handle: (params: string[], query: URLSearchParams, body: Record<string, unknown>) => Promise<Answer>;
  };
  type Answer = { status: number; body: unknown; link?: string };
  const ok = (body: unknown, status = 200): Answer => ({ status, body });
  const repoPath = `/repos/${owner}/${repo}`;
  const route = (method: string, path: string, handle: Route['handle']): Route => ({
    method,
    pattern: new RegExp(`^${path}$`),
    handle,
  });

  const routes: Route[] = [
    route('GET', '/user', async () => ok(buildUser(bot, urls))),
    route('GET', repoPath, async () =>
      ok(buildRepository({ id: 1, owner: { login: owner, id: 3 }, name: repo, defaultBranch }, urls)),
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
    route('POST', `${repoPath}/issues`, async (_params, _query, body) => {
      if (typeof body.title !== 'string' || body.title === '') {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
        });
      }
      const issue = createIssue(
        { title: body.title, body: stringOrNull(body.body), labels: stringList(body.labels) },
        bot,
      );
      return ok(issueJSON(issue, true), 201);
    }),
    route('GET', `${repoPath}/issues/(\\d+)`, async ([issueNumber]) =>
      ok(issueJSON(requireIssue(issueNumber), true)),
    ),
    route('PATCH', `${repoPath}/issues/(\\d+)`, async ([issueNumber], _query, body) => {
      const issue = requireIssue(issueNumber);
      if (typeof body.title === 'string') issue.title = body.title;
      if ('body' in body) issue.body = stringOrNull(body.body);
      if (Array.isArray(body.labels)) issue.labels = [...new Set(stringList(body.labels))];
      if (body.state === 'open' || body.state === 'closed') {
        setState(issue, body.state, bot, stringOrNull(body.state_reason) ?? undefined);
      }
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(issueJSON(issue, true));
    }),
    route('POST', `${repoPath}/issues/(\\d+)/labels`, async ([issueNumber], _query, body) => {
      const issue = requireIssue(issueNumber);
      issue.labels = [...new Set([...issue.labels, ...stringList(body.labels)])];
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(issue.labels.map((name) => buildLabel(labelRecord(name), urls)));
    }),
    route('DELETE', `${repoPath}/issues/(\\d+)/labels/(.+)`, async ([issueNumber, name = '']) => {
      const issue = requireIssue(issueNumber);
      if (!issue.labels.includes(name)) throw new HttpError(404, 'Label does not exist');
      issue.labels = issue.labels.filter((label) => label !== name);
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(issue.labels.map((label) => buildLabel(labelRecord(label), urls)));
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
        buildComment(comment, issue.number, urls),
      );
    }),
    route('POST', `${repoPath}/issues/(\\d+)/comments`, async ([issueNumber], _query, body) => {
      const issue = requireIssue(issueNumber);
      if (typeof body.body !== 'string' || body.body === '') {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
        });
      }
      const comment: FakeComment = {
        id: nextID++,
        body: body.body,
        user: bot,
        // An App's bot is no member or collaborator of the repository; the token's user owns it.
        authorAssociation: bot.type === 'Bot' ? 'NONE' : 'OWNER',
        createdAt: githubTimestamp(Date.now()),
      };
      issue.comments.push(comment);
      issue.updatedAt = comment.createdAt;
      return ok(buildComment(comment, issue.number, urls), 201);
    }),
    route('POST', '/graphql', async (_params, _query, body) => {
      const query = typeof body.query === 'string' ? body.query : '';
      if (!/\bquery flotillaOpenPullRequests\b/.test(query)) {
        // The fake answers the queries Flotilla sends, not GraphQL in general.
        return ok({
          errors: [{ message: 'The fake GitHub answers only the flotillaOpenPullRequests query' }],
        });
      }
      const variables = (body.variables ?? {}) as Record<string, unknown>;
      if (variables.owner !== owner || variables.repo !== repo) {
        return ok({
          data: { viewer: { login: bot.login }, repository: null },
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
          const runs = checkRunsFor(head);
          return {
            number: issue.number,
            title: issue.title,
            url: `https://github.com/${owner}/${repo}/pull/${issue.number}`,
            body: issue.body ?? '',
            isDraft: issue.pull.draft,
            headRefName: issue.pull.headRef,
            headRefOid: head,
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
          viewer: { login: bot.login },
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
    route('POST', `${repoPath}/pulls`, async (_params, _query, body) => {
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
        (issue) => issue.pull?.headRef === head && issue.state === 'open',
      );
      if (open) invalid(`A pull request already exists for ${owner}:${head}.`);
      const issue = createIssue({ title: String(body.title), body: stringOrNull(body.body) }, bot);
      issue.pull = {
        headRef: head,
        baseRef: base,
        draft: body.draft === true,
        mergedAt: null,
        reviews: [],
        reviewComments: [],
      };
      return ok(await pullJSON(issue as FakeIssue & { pull: FakePull }), 201);
    }),
    route('GET', `${repoPath}/pulls/(\\d+)`, async ([pullNumber]) =>
      ok(await pullJSON(requirePull(pullNumber))),
    ),
    route('PATCH', `${repoPath}/pulls/(\\d+)`, async ([pullNumber], _query, body) => {
      const issue = requirePull(pullNumber);
      if (typeof body.title === 'string') issue.title = body.title;
      if ('body' in body) issue.body = stringOrNull(body.body);
      if (body.state === 'open' || body.state === 'closed') setState(issue, body.state, bot);
      issue.updatedAt = githubTimestamp(Date.now());
      return ok(await pullJSON(issue));
    }),
    route('PUT', `${repoPath}/pulls/(\\d+)/merge`, async ([pullNumber], _query, body) => {
      const issue = requirePull(pullNumber);
      if (issue.state !== 'open') throw new HttpError(405, 'Pull Request is not mergeable');
      const head = await headSHA(issue.pull);
      if (typeof body.sha === 'string' && body.sha !== head) {
        throw new HttpError(409, 'Head branch was modified. Review and try the merge again.');
      }
      if (body.merge_method !== undefined && body.merge_method !== 'merge') {
        throw new HttpError(405, 'The fake GitHub merges with merge commits only');
      }
      const message = `Merge pull request #${issue.number} from ${owner}/${issue.pull.headRef}\n\n${issue.title}`;
      const sha = await git.mergeInto(issue.pull.baseRef, head, message);
      if (sha === null) throw new HttpError(405, 'Pull Request is not mergeable');
      issue.pull.mergedAt = githubTimestamp(Date.now());
      setState(issue, 'closed', bot);
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
        contents_url: `${urls.api}${repoPath}/contents/${file.path}?ref=${head}`,
        ...(file.patch === null ? {} : { patch: file.patch }),
      }));
    }),
    route('GET', `${repoPath}/pulls/(\\d+)/reviews`, async ([pullNumber], query) => {
      const issue = requirePull(pullNumber);
      return paginate(issue.pull.reviews, query, `${repoPath}/pulls/${issue.number}/reviews`, (review) =>
        buildReview(review, issue.number, urls),
      );
    }),
    route('POST', `${repoPath}/pulls/(\\d+)/reviews`, async ([pullNumber], _query, body) => {
      const issue = requirePull(pullNumber);
      const states = {
        APPROVE: 'APPROVED',
        REQUEST_CHANGES: 'CHANGES_REQUESTED',
        COMMENT: 'COMMENTED',
      } as const;
      const state = states[String(body.event) as keyof typeof states];
      if (state === undefined) {
        throw new HttpError(422, 'Unprocessable Entity', {
          errors: ['event must be APPROVE, REQUEST_CHANGES or COMMENT'],
        });
      }
      const commitID = await headSHA(issue.pull);
      const now = githubTimestamp(Date.now());
      const review = {
        id: nextID++,
        user: bot,
        body: stringOrNull(body.body) ?? '',
        state,
        commitID,
        submittedAt: now,
      };
      const comments = Array.isArray(body.comments) ? (body.comments as Record<string, unknown>[]) : [];
      const changed = await changedPaths(issue.pull);
      for (const comment of comments) {
        // GitHub resolves a line against the diff; the fake only checks the file is in it.
        if (
          typeof comment.path !== 'string' ||
          typeof comment.line !== 'number' ||
          !changed.has(comment.path)
        ) {
          throw new HttpError(422, 'Unprocessable Entity', { errors: ['Line could not be resolved'] });
        }
      }
      issue.pull.reviews.push(review);
      for (const comment of comments) {
        issue.pull.reviewComments.push({
          id: nextID++,
          reviewID: review.id,
          user: bot,
          path: String(comment.path),
          line: Number(comment.line),
          body: String(comment.body ?? ''),
          commitID,
          createdAt: now,
        });
      }
      return ok(buildReview(review, issue.number, urls));
    }),
    route('PUT', `${repoPath}/pulls/(\\d+)/reviews/(\\d+)/dismissals`, async ([pullNumber, reviewID]) => {
      const issue = requirePull(pullNumber);
      const review = issue.pull.reviews.find((candidate) => candidate.id === Number(reviewID));
      if (review === undefined) throw new HttpError(404, 'Not Found');
      if (review.state !== 'APPROVED' && review.state !== 'CHANGES_REQUESTED') {
        throw new HttpError(422, 'Unprocessable Entity', {
          errors: ['Can not dismiss a commented pull request review'],
        });
      }
      review.state = 'DISMISSED';
      return ok(buildReview(review, issue.number, urls));
    }),
    route('GET', `${repoPath}/pulls/(\\d+)/comments`, async ([pullNumber], query) => {
      const issue = requirePull(pullNumber);
      return paginate(
        issue.pull.reviewComments,
        query,
        `${repoPath}/pulls/${issue.number}/comments`,
        (comment) => buildReviewComment(comment, issue.number, urls),
      );
    }),
    route('POST', `${repoPath}/pulls/(\\d+)/comments`, async ([pullNumber], _query, body) => {
      const issue = requirePull(pullNumber);
      if (
        typeof body.path !== 'string' ||
        typeof body.body !== 'string' ||
        typeof body.commit_id !== 'string'
      ) {
        throw new HttpError(422, 'Validation Failed', { errors: ['path, body and commit_id are required'] });
      }
      const fileLevel = body.subject_type === 'file';
      if (!(await changedPaths(issue.pull)).has(body.path)) {
        throw new HttpError(422, 'Validation Failed', { errors: ['path could not be resolved'] });
      }
      if (!fileLevel && typeof body.line !== 'number') {
        throw new HttpError(422, 'Validation Failed', {
          errors: ['line is required unless subject_type is file'],
        });
      }
      const comment = {
        id: nextID++,
        reviewID: null,
        user: bot,
        path: body.path,
        line: fileLevel ? null : Number(body.line),
        body: body.body,
        commitID: body.commit_id,
        createdAt: githubTimestamp(Date.now()),
      };
      issue.pull.reviewComments.push(comment);
      return ok(buildReviewComment(comment, issue.number, urls), 201);
    }),
    route('GET', `${repoPath}/commits/([^/]+)/check-runs`, async ([ref = '']) => {
      const sha = await git.resolveCommit(ref);
      if (sha === null) throw new HttpError(422, `No commit found for SHA: ${ref}`);
      const runs = checkRunsFor(sha);
      return ok({ total_count: runs.length, check_runs: runs });
    }),
    route('GET', `${repoPath}/check-runs/(\\d+)/annotations`, async ([id], query) => {
      const settled = [...settledChecks].find((sha) => Number.parseInt(sha.slice(0, 8), 16) === Number(id));
      if (settled === undefined) throw new HttpError(404, 'Not Found');
      const annotations = ci === 'failing' ? FAILING_CHECK_ANNOTATIONS : [];
      return paginate(annotations, query, `${repoPath}/check-runs/${id}/annotations`, (annotation) => ({
        ...annotation,
        blob_href: `https://github.com/${owner}/${repo}/blob/${settled}/${annotation.path}`,
        start_column: null,
        end_column: null,
        raw_details: null,
      }));
    }),
    route('GET', `${repoPath}/commits/([^/]+)/status`, async ([ref = '']) => {
      const sha = await git.resolveCommit(ref);
      if (sha === null) throw new HttpError(422, `No commit found for SHA: ${ref}`);
      // The fake's CI reports check runs only (as GitHub Actions does); no commit statuses.
      return ok({ state: 'pending', statuses: [], sha, total_count: 0 });
    }),
    route('GET', `${repoPath}/labels`, async (_params, query) =>
      paginate([...labels.values()], query, `${repoPath}/labels`, (label) => buildLabel(label, urls)),
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
        id: nextID++,
        name: body.name,
        color: typeof body.color === 'string' ? body.color : 'ededed',
        description: stringOrNull(body.description),
      };
      labels.set(label.name, label);
      return ok(buildLabel(label, urls), 201);
    }),
    route('PATCH', `${repoPath}/labels/([^/]+)`, async ([name = ''], _query, body) => {
      const label = labels.get(decodeURIComponent(name));
      if (label === undefined) throw new HttpError(404, 'Not Found');
      if (typeof body.color === 'string') label.color = body.color;
      if (body.description !== undefined) label.description = stringOrNull(body.description);
      return ok(buildLabel(label, urls));
    }),
    route('GET', `${repoPath}/git/ref/(heads/.+)`, async ([ref = '']) => {
      const sha = await git.resolveCommit(`refs/${ref}`);
      if (sha === null) throw new HttpError(404, 'Not Found');
      return ok(buildRef(`refs/${ref}`, sha, urls));
    }),
    route('GET', `${repoPath}/git/trees/(.+)`, async ([name = ''], query) => {
      const recursive = query.has('recursive') && !['0', 'false'].includes(query.get('recursive') ?? '');
      const tree = await git.readTree(name, recursive);
      if (tree === null) throw new HttpError(404, 'Not Found');
      return ok({
        sha: tree.sha,
        url: `${urls.api}${repoPath}/git/trees/${tree.sha}`,
        tree: tree.entries.map((entry) => ({
          path: entry.path,
          mode: entry.mode,
          type: entry.type,
          sha: entry.sha,
          ...(entry.size === null ? {} : { size: entry.size }),
          url: `${urls.api}${repoPath}/git/${entry.type}s/${entry.sha}`,
        })),
        truncated: false,
      });
    }),
    route('GET', `${repoPath}/git/blobs/([0-9a-f]{40})`, async ([sha = '']) => {
      const bytes = await git.readBlob(sha);
      if (bytes === null) throw new HttpError(404, 'Not Found');
      return ok({
        sha,
        node_id: Buffer.from(`0:Blob${sha}`).toString('base64'),
        size: bytes.length,
        url: `${urls.api}${repoPath}/git/blobs/${sha}`,
        // GitHub wraps the base64 at 60 characters.
        content: `${(bytes.toString('base64').match(/.{1,60}/g) ?? []).join('\n')}\n`,
        encoding: 'base64',
      });
    }),
  ];

  function paginate<T>(
    items: T[],
    query: URLSearchParams,
    path: string,
    build: (item: T) => unknown,
  ): Answer {
    const perPage = Math.min(Math.max(Number(query.get('per_page') ?? 30) || 30, 1), 100);
    const lastPage = Math.max(Math.ceil(items.length / perPage), 1);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const pageURL = (n: number) => {
      const next = new URLSearchParams(query);
      next.set('page', String(n));
      return `<${urls.api}${path}?${next}>`;
    };
    const links = [
      ...(page < lastPage ? [`${pageURL(page + 1)}; rel="next"`, `${pageURL(lastPage)}; rel="last"`] : []),
      ...(page > 1 ? [`${pageURL(page - 1)}; rel="prev"`, `${pageURL(1)}; rel="first"`] : []),
    ];
    return {
      status: 200,
      body: items.slice((page - 1) * perPage, page * perPage).map(build),
      link: links.length > 0 ? links.join(', ') : undefined,
    };
  }

  function rateHeaders(): Record<string, string> {
    if (Date.now() / 1000 >= resetAt) {
      remaining = limit;
      resetAt = Math.floor(Date.now() / 1000) + 3600;
    }
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-used': String(limit - remaining),
      'x-ratelimit-resource': 'core',
    };
  }

  function send(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = body === undefined ? '' : JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, max-age=60, s-maxage=60',
      vary: 'Accept, Authorization, Cookie, X-GitHub-OTP',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-request-id': createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 16),
      'x-oauth-scopes': 'repo',
      'x-accepted-oauth-scopes': 'repo',
      ...(text === '' ? {} : { 'content-length': String(Buffer.byteLength(text)) }),
      ...headers,
    });
    response.end(text);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', urls.api);
    const record: FakeGitHubRequest = {
      method,
      path: `${url.pathname}${url.search}`,
      status: 0,
      counted: false,
      resource: url.pathname === '/graphql' ? 'graphql' : 'core',
      at: Date.now(),
    };
    requests.push(record);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      send(response, status, body, headers);
    };
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);

    const faultIndex = faults.findIndex(
      (entry) =>
        (entry.method === undefined || entry.method === method) &&
        (entry.path === undefined || entry.path.test(record.path)),
    );
    const interleavedIndex = interleaved.findIndex(
      (entry) =>
        (entry.method === undefined || entry.method === method) &&
        (entry.path === undefined || entry.path.test(record.path)),
    );
    const interleavedAction = interleaved[interleavedIndex];
    if (interleavedAction !== undefined) {
      interleaved.splice(interleavedIndex, 1);
      await interleavedAction.action();
    }
    const fault = faults[faultIndex];
    if (fault !== undefined) {
      if (--fault.times <= 0) faults.splice(faultIndex, 1);
      const injected = answerFault(fault.fault);
      return reply(injected.status, injected.body, { ...rateHeaders(), ...injected.headers });
    }

    const authorization = (request.headers.authorization ?? '').replace(/^(token|bearer)\s+/i, '');
    if (options.app !== undefined && /^\/app(\/|$)/.test(url.pathname)) {
      const answer = answerApp(options.app, method, url.pathname, authorization);
      if (answer.status === 201) {
        const body = answer.body as { token: string; expires_at: string };
        installationTokens.push({ token: body.token, expiresAt: Date.parse(body.expires_at) });
      }
      record.counted = answer.status < 300;
      return reply(answer.status, answer.body, rateHeaders());
    }
    const installation = installationTokens.find((entry) => entry.token === authorization);
    const authorized =
      authorization === options.token || (installation !== undefined && installation.expiresAt > Date.now());
    if (!authorized) {
      return reply(401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
    }
    if (installation !== undefined && url.pathname === '/user') {
      return reply(403, {
        message: 'Resource not accessible by integration',
        documentation_url: `${DOCS}/users/users#get-the-authenticated-user`,
        status: '403',
      });
    }
    if (remaining <= 0 && Date.now() / 1000 < resetAt) {
      return reply(
        403,
        {
          message: `API rate limit exceeded for user ID ${bot.id}. If you reach out to GitHub Support for help, please include the request ID.`,
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-the-primary-rate-limit`,
          status: '403',
        },
        rateHeaders(),
      );
    }

    const found = routes
      .filter((candidate) => candidate.method === method)
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(decodeURIComponent(url.pathname)) }))
      .find(({ match }) => match !== null);
    let answer: Answer;
    try {
      if (found?.match == null) throw new HttpError(404, 'Not Found');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text === '' ? {} : JSON.parse(text);
      answer = await found.candidate.handle(
        found.match.slice(1).map((part) => part ?? ''),
        url.searchParams,
        typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
      );
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      const extra = error instanceof HttpError ? error.extra : {};
      answer = {
        status,
        body: { message, ...extra, documentation_url: DOCS, status: String(status) },
      };
    }

    const etag = `W/"${createHash('sha256').update(JSON.stringify(answer.body)).digest('hex').slice(0, 32)}"`;
    if (method === 'GET' && answer.status === 200 && request.headers['if-none-match'] === etag) {
      // Not counted: "making a conditional request … does not count against your primary rate limit".
      return reply(304, undefined, { etag, ...rateHeaders() });
    }
    record.counted = true;
    if (record.resource === 'graphql') {
      graphqlRemaining = Math.max(graphqlRemaining - 1, 0);
      return reply(answer.status, answer.body, {
        ...rateHeaders(),
        'x-ratelimit-remaining': String(graphqlRemaining),
        'x-ratelimit-used': String(limit - graphqlRemaining),
        'x-ratelimit-resource': 'graphql',
      });
    }
    remaining = Math.max(remaining - 1, 0);
    reply(answer.status, answer.body, {
      ...rateHeaders(),
      ...(answer.status < 300 ? { etag } : {}),
      ...(answer.link === undefined ? {} : { link: answer.link }),
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { message: String(error) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  urls = { ...urls, api: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };

  return {
    apiUrl: urls.api,
    owner,
    repo,
    login: bot.login,
    gitUrl: git.path,
    git,
    requests,
    installationTokens,
    injectFault(fault, match = {}) {
      faults.push({ fault, times: match.times ?? 1, method: match.method, path: match.path });
    },
    interleave(match, action) {
      interleaved.push({ ...match, action });
    },
    setRateLimit(state) {
      remaining = state.remaining;
      resetAt = Math.floor(Date.now() / 1000) + state.resetInSeconds;
    },
    human: {
      closeIssue(issueNumber) {
        const issue = requireIssue(String(issueNumber));
        setState(issue, 'closed', HUMAN);
      },
      setIssueLabels(issueNumber, names) {
        requireIssue(String(issueNumber)).labels = [...new Set(names)];
      },
      issueLabels: (issueNumber) => [...requireIssue(String(issueNumber)).labels],
      setBlockedBy(issueNumber, blockers) {
        requireIssue(String(issueNumber)).blockedBy = [...blockers];
      },
      setDraft(pullNumber, draft) {
        requirePull(String(pullNumber)).pull.draft = draft;
      },
      comment(issueNumber, body, fields = {}) {
        const issue = requireIssue(String(issueNumber));
        const user: FakeUser =
          fields.login === undefined
            ? HUMAN
            : { login: fields.login, id: nextID++, ...(fields.bot === true && { type: 'Bot' as const }) };
        const createdAt = githubTimestamp(fields.at ?? Date.now());
        const comment = {
          id: nextID++,
          body,
          user,
          authorAssociation: fields.association ?? 'OWNER',
          createdAt,
        };
        // Comments are listed in the order they were made (a backdated one goes before later ones).
        issue.comments.push(comment);
        issue.comments.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
        issue.updatedAt = githubTimestamp(Date.now());
        return comment.id;
      },
      closePullRequest(pullNumber) {
        setState(requirePull(String(pullNumber)), 'closed', HUMAN);
      },
      async forcePush(branch, files) {
        const base = await git.resolveCommit(`refs/heads/${defaultBranch}`);
        await git.deleteBranch(branch);
        return git.commitFiles(branch, files, 'Rewritten by hand', base ?? undefined);
      },
      createIssue: (fields) => createIssue(fields, HUMAN).number,
      commitFiles: (files, message = 'Update files') => git.commitFiles(defaultBranch, files, message),
      async openPullRequest(fields) {
        const base = await git.resolveCommit(`refs/heads/${defaultBranch}`);
        await git.commitFiles(fields.branch, fields.files, fields.title, base ?? undefined);
        const issue = createIssue({ title: fields.title, body: fields.body ?? null }, HUMAN);
        issue.pull = {
          headRef: fields.branch,
          baseRef: defaultBranch,
          draft: fields.draft ?? false,
          mergedAt: null,
          reviews: [],
          reviewComments: [],
        };
        return issue.number;
      },
    },
    async settleChecks() {
      for (const issue of issues.values()) {
        if (issue.pull !== null && issue.state === 'open') settledChecks.add(await headSHA(issue.pull));
      }
    },
    issueComments: (issueNumber) => requireIssue(String(issueNumber)).comments.map((comment) => comment.body),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await git.remove();
    },
  };
}

function answerFault(fault: FakeGitHubFault): {
  status: number;
  body: unknown;
  headers: Record<string, string>;
} {
  switch (fault.kind) {
    case 'secondary-rate-limit':
      return {
        status: 403,
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
          status: '403',
        },
      };
    case 'server-error':
      return { status: fault.status, headers: {}, body: { message: 'Server Error' } };
    case 'bad-credentials':
      return {
        status: 401,
        headers: {},
        body: { message: 'Bad credentials', documentation_url: DOCS, status: '401' },
      };
  }
}

/** The App's endpoints: a JWT (RS256, `iss` the App's id, at most 10 minutes long) or 401, as GitHub does. */
function answerApp(
  app: NonNullable<FakeGitHubOptions['app']>,
  method: string,
  path: string,
  jwt: string,
): { status: number; body: unknown } {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const claims = decodeJSON(payload);
  const now = Math.floor(Date.now() / 1000);
  const valid =
    decodeJSON(header)?.alg === 'RS256' &&
    verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      app.publicKey,
      Buffer.from(signature, 'base64url'),
    ) &&
    claims !== null &&
    String(claims.iss) === String(app.id) &&
    typeof claims.iat === 'number' &&
    typeof claims.exp === 'number' &&
    claims.iat <= now + 60 &&
    claims.exp > now &&
    claims.exp - claims.iat <= 600;
  if (!valid) {
    return {
      status: 401,
      body: { message: 'A JSON web token could not be decoded', documentation_url: DOCS, status: '401' },
    };
  }
  if (method === 'GET' && path === '/app') {
    return {
      status: 200,
      body: { id: app.id, slug: app.slug, name: app.slug, owner: { login: 'acme', id: 3 }, permissions: {} },
    };
  }
  const installation = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
  if (method !== 'POST' || installation === null || Number(installation[1]) !== app.installationId) {
    return { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
  }
  return {
    status: 201,
    body: {
      token: `ghs_${randomBytes(18).toString('hex')}`,
      expires_at: new Date(Date.now() + (app.tokenLifetimeSeconds ?? 3600) * 1000).toISOString(),
      permissions: {
        issues: 'write',
        pull_requests: 'write',
        contents: 'write',
        checks: 'read',
        metadata: 'read',
      },
      repository_selection: 'selected',
    },
  };
}

function decodeJSON(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function stringList(value: unknown): string[] {
  // GitHub accepts label names or { name } objects.
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return [entry];
    if (typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string') {
      return [entry.name];
    }
    return [];
  });
}
