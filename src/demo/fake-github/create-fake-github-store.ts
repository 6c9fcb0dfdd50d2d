import { listChangedFiles } from '../../providers/shared/list-changed-files.ts';
import {
  buildIssue,
  buildPull,
  type FakeAuthorAssociation,
  type FakeIssue,
  type FakeLabel,
  type FakePull,
  type FakeUrls,
  type FakeUser,
  githubTimestamp,
} from './build-fake-github-resources.ts';
import type { FakeGitHubGit } from './create-fake-github-git.ts';

/** GitHub's REST docs root: every error body links there, as api.github.com's do. */
export const DOCS = 'https://docs.github.com/rest';

/** An error answer: status, `message`, and extra fields (`errors`, …) of GitHub's error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Who sent a request: the token's user, and whether the token is a GitHub App's installation token. */
export interface FakeCaller {
  user: FakeUser;
  viaApp: boolean;
  /** The caller's `author_association` on what it writes (an extra user's); absent: the owner's. */
  association?: FakeAuthorAssociation;
}

export type FakeAnswer = {
  status: number;
  body: unknown;
  link?: string | undefined;
  headers?: Record<string, string>;
};

export interface FakeRoute {
  method: string;
  pattern: RegExp;
  handle: (
    params: string[],
    query: URLSearchParams,
    body: Record<string, unknown>,
    caller: FakeCaller,
  ) => Promise<FakeAnswer>;
}

export const ok = (body: unknown, status = 200): FakeAnswer => ({ status, body });

export const route = (method: string, path: string, handle: FakeRoute['handle']): FakeRoute => ({
  method,
  pattern: new RegExp(`^${path}$`),
  handle,
});

export type FakePullIssue = FakeIssue & { pull: FakePull };

/** The CI the fake runs on every head (see `FakeGitHubOptions.ci`). */
export type FakeCI = 'none' | 'passing' | 'failing';

/**
 * The fake's state and the helpers every resource's routes share: issues (pull requests are issues with a
 * `pull`), labels, the real bare repository, and GitHub's pagination.
 */
export interface FakeGitHubStore {
  owner: string;
  repo: string;
  /** `/repos/OWNER/REPO` */
  repoPath: string;
  defaultBranch: string;
  git: FakeGitHubGit;
  issues: Map<number, FakeIssue>;
  labels: Map<string, FakeLabel>;
  /** The primary token's user (the engine's author). */
  bot: FakeUser;
  ci: FakeCI;
  /** Heads whose check run has completed. */
  settledChecks: Set<string>;
  /** Heads whose check run completes the moment it is first read (`ciSettlesAtOnce`). */
  settleAtOnce: boolean;
  /** The first this many heads the CI runs on fail (`ci: 'passing'` passes the later ones). */
  failingHeads: number;
  /** Branch protection on the base: approving reviews a merge needs (0: none). */
  requiredApprovingReviews: number;
  /** A ruleset requires a merge queue on the default branch (fake-github-merge-queue.ts). */
  mergeQueue: boolean;
  /** Pull request numbers in the merge queue, first to merge first. */
  queue: number[];
  /** Heads in the order the CI first ran on them. */
  ciHeads: string[];
  issueDependencies: boolean;
  urls(): FakeUrls;
  nextID(): number;
  labelRecord(name: string): FakeLabel;
  issueJSON(issue: FakeIssue, detail: boolean): ReturnType<typeof buildIssue>;
  requireIssue(issueNumber: string | undefined): FakeIssue;
  requirePull(pullNumber: string | undefined): FakePullIssue;
  createIssue(fields: { title: string; body?: string | null; labels?: string[] }, user: FakeUser): FakeIssue;
  setState(issue: FakeIssue, state: 'open' | 'closed', by: FakeUser, reason?: string): void;
  headSHA(pull: FakePull): Promise<string>;
  pullJSON(issue: FakePullIssue): Promise<ReturnType<typeof buildPull>>;
  /** Per changed file of the pull request (its path): the file's diff hunks, as `pulls/N/files` shows them. */
  filePatches(pull: FakePull): Promise<Map<string, string>>;
  paginate<T>(items: T[], query: URLSearchParams, path: string, build: (item: T) => unknown): FakeAnswer;
}

export function createFakeGitHubStore(fields: {
  owner: string;
  repo: string;
  defaultBranch: string;
  git: FakeGitHubGit;
  bot: FakeUser;
  ci: FakeCI;
  settleAtOnce: boolean;
  failingHeads: number;
  requiredApprovingReviews: number;
  mergeQueue: boolean;
  issueDependencies: boolean;
  urls(): FakeUrls;
}): FakeGitHubStore {
  const { git, urls } = fields;
  const issues = new Map<number, FakeIssue>();
  const labels = new Map<string, FakeLabel>();
  let nextNumber = 1;
  let id = 1000;
  const nextID = () => id++;

  function labelRecord(name: string): FakeLabel {
    let label = labels.get(name);
    if (label === undefined) {
      // GitHub creates a label that does not exist yet when an issue is given it.
      label = { id: nextID(), name, color: 'ededed', description: null };
      labels.set(name, label);
    }
    return label;
  }
  function dependenciesSummary(issue: FakeIssue) {
    if (!fields.issueDependencies) return null;
    const blockers = issue.blockedBy.map((number) => issues.get(number));
    const blocking = [...issues.values()].filter((other) => other.blockedBy.includes(issue.number));
    return {
      blocked_by: blockers.filter((blocker) => blocker?.state === 'open').length,
      blocking: blocking.filter((other) => other.state === 'open').length,
      total_blocked_by: blockers.length,
      total_blocking: blocking.length,
    };
  }
  async function headSHA(pull: FakePull): Promise<string> {
    return (await git.resolveCommit(`refs/heads/${pull.headRef}`)) ?? '0'.repeat(40);
  }

  return {
    ...fields,
    repoPath: `/repos/${fields.owner}/${fields.repo}`,
    issues,
    labels,
    settledChecks: new Set<string>(),
    ciHeads: [],
    queue: [],
    nextID,
    labelRecord,
    issueJSON: (issue, detail) =>
      buildIssue(issue, issue.labels.map(labelRecord), urls(), detail, dependenciesSummary(issue)),
    requireIssue(issueNumber) {
      const issue = issues.get(Number(issueNumber));
      if (issue === undefined) throw new HttpError(404, 'Not Found');
      return issue;
    },
    requirePull(pullNumber) {
      const issue = issues.get(Number(pullNumber));
      if (issue?.pull == null) throw new HttpError(404, 'Not Found');
      return issue as FakePullIssue;
    },
    createIssue(issueFields, user) {
      const now = githubTimestamp(Date.now());
      const issue: FakeIssue = {
        number: nextNumber++,
        id: nextID(),
        title: issueFields.title,
        body: issueFields.body ?? null,
        labels: [...new Set(issueFields.labels ?? [])],
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
    },
    setState(issue, state, by, reason) {
      if (state === issue.state) return;
      issue.state = state;
      issue.closedAt = state === 'closed' ? githubTimestamp(Date.now()) : null;
      issue.closedBy = state === 'closed' ? by : issue.closedBy;
      issue.stateReason =
        state === 'closed' ? (reason === 'not_planned' ? 'not_planned' : 'completed') : 'reopened';
    },
    headSHA,
    async pullJSON(issue) {
      const base = (await git.resolveCommit(`refs/heads/${issue.pull.baseRef}`)) ?? '0'.repeat(40);
      const head = await headSHA(issue.pull);
      // GitHub computes mergeability in the background after a push: the first read of a new head says
      // null ("GitHub has started a background job to compute the mergeability"), later reads the result.
      let mergeable: boolean | null = null;
      if (issue.state === 'open' && issue.pull.mergeableFor === `${base}..${head}`) {
        mergeable = await git.canMerge(base, head);
      }
      issue.pull.mergeableFor = `${base}..${head}`;
      return buildPull(issue, { head, base }, urls(), issue.state === 'open' ? mergeable : null);
    },
    async filePatches(pull) {
      const head = await headSHA(pull);
      const base = (await git.resolveCommit(`refs/heads/${pull.baseRef}`)) ?? head;
      const files = await listChangedFiles(git.path, (await git.mergeBase(base, head)) ?? base, head);
      return new Map(files.map((file) => [file.path, file.patch ?? '']));
    },
    paginate(items, query, path, build) {
      // "per_page … Max 100": a larger value is served as 100 (GitHub's pagination docs).
      const perPage = Math.min(Math.max(Number(query.get('per_page') ?? 30) || 30, 1), 100);
      const lastPage = Math.max(Math.ceil(items.length / perPage), 1);
      const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
      const pageURL = (n: number) => {
        const next = new URLSearchParams(query);
        next.set('page', String(n));
        return `<${urls().api}${path}?${next}>`;
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
    },
  };
}

/** The head-side (RIGHT) line numbers a unified diff shows: added and context lines of every hunk. */
export function headSideLines(patch: string): Set<number> {
  const lines = new Set<number>();
  let next: number | null = null;
  for (const line of patch.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk !== null) {
      next = Number(hunk[1]);
      continue;
    }
    if (next === null || line.startsWith('-') || line.startsWith('\\')) continue;
    if (line.startsWith('+') || line.startsWith(' ')) lines.add(next++);
  }
  return lines;
}

/**
 * GitHub's `diff_hunk` of a line comment: the hunk holding the head-side `line`, from its header down to that
 * line. Null when the line is in no hunk.
 */
export function diffHunkAt(patch: string, line: number): string | null {
  let hunk: string[] = [];
  let next: number | null = null;
  for (const text of patch.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header !== null) {
      hunk = [text];
      next = Number(header[1]);
      continue;
    }
    if (next === null) continue;
    hunk.push(text);
    if (text.startsWith('-') || text.startsWith('\\')) continue;
    if (next === line) return hunk.join('\n');
    next++;
  }
  return null;
}
