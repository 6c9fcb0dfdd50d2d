import { type FakeAuthorAssociation, type FakeUser, githubTimestamp } from './build-fake-github-resources.ts';
import type { FakeGitHubGit } from './create-fake-github-git.ts';
import type { FakeGitHubStore } from './create-fake-github-store.ts';
import type { FakeWebhooks } from './fake-github-webhooks.ts';

/** The repository's owner, who acts on github.com in the tests (`FakeGitHub.human`). */
export const HUMAN: FakeUser = { login: 'octocat', id: 1 };

/** What a human does on github.com (no request is recorded). */
export interface FakeGitHubHuman {
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
}

interface FakeGitHubHumanDeps {
  store: FakeGitHubStore;
  git: FakeGitHubGit;
  webhooks: FakeWebhooks;
  /** Open pull requests' heads as the webhooks last told them (a force push updates it). */
  toldHeads: Map<number, string>;
  /** Sends a `pull_request` webhook with this action (when a hook listens). */
  tellPull(number: number, action: string): Promise<void>;
}

/** A human's actions on github.com, each with the webhook GitHub sends for it. */
export function buildFakeGitHubHuman(deps: FakeGitHubHumanDeps): FakeGitHubHuman {
  const { store, git, webhooks, toldHeads, tellPull } = deps;
  const { requireIssue, requirePull, setState, createIssue, issues, defaultBranch } = store;
  return {
    closeIssue(issueNumber) {
      const issue = requireIssue(String(issueNumber));
      setState(issue, 'closed', HUMAN);
      webhooks.emit('issues', 'closed', { issue: store.issueJSON(issue, false) }, HUMAN);
    },
    setIssueLabels(issueNumber, names) {
      const issue = requireIssue(String(issueNumber));
      issue.labels = [...new Set(names)];
      webhooks.emit('issues', 'labeled', { issue: store.issueJSON(issue, false) }, HUMAN);
    },
    issueLabels: (issueNumber) => [...requireIssue(String(issueNumber)).labels],
    setBlockedBy(issueNumber, blockers) {
      requireIssue(String(issueNumber)).blockedBy = [...blockers];
    },
    setDraft(pullNumber, draft) {
      requirePull(String(pullNumber)).pull.draft = draft;
      void tellPull(pullNumber, draft ? 'converted_to_draft' : 'ready_for_review');
    },
    comment: (issueNumber, body, fields = {}) => commentAsHuman(deps, issueNumber, body, fields),
    closePullRequest(pullNumber) {
      setState(requirePull(String(pullNumber)), 'closed', HUMAN);
      void tellPull(pullNumber, 'closed');
    },
    async forcePush(branch, files) {
      const base = await git.resolveCommit(`refs/heads/${defaultBranch}`);
      await git.deleteBranch(branch);
      const sha = await git.commitFiles(branch, files, 'Rewritten by hand', base ?? undefined);
      for (const issue of issues.values()) {
        if (issue.pull?.headRef === branch && issue.state === 'open') {
          toldHeads.set(issue.number, sha);
          await tellPull(issue.number, 'synchronize');
        }
      }
      return sha;
    },
    createIssue: (fields) => {
      const issue = createIssue(fields, HUMAN);
      webhooks.emit('issues', 'opened', { issue: store.issueJSON(issue, false) }, HUMAN);
      return issue.number;
    },
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
      await tellPull(issue.number, 'opened');
      return issue.number;
    },
  };
}

/** `human.comment`: the comment, kept in creation order, and its `issue_comment` webhook. */
function commentAsHuman(
  { store, webhooks }: FakeGitHubHumanDeps,
  issueNumber: number,
  body: string,
  fields: Parameters<FakeGitHubHuman['comment']>[2] & object,
): number {
  const issue = store.requireIssue(String(issueNumber));
  const user: FakeUser =
    fields.login === undefined
      ? HUMAN
      : { login: fields.login, id: store.nextID(), ...(fields.bot === true && { type: 'Bot' as const }) };
  const createdAt = githubTimestamp(fields.at ?? Date.now());
  const comment = {
    id: store.nextID(),
    body,
    user,
    authorAssociation: fields.association ?? 'OWNER',
    createdAt,
  };
  // Comments are listed in the order they were made (a backdated one goes before later ones).
  issue.comments.push(comment);
  issue.comments.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
  issue.updatedAt = githubTimestamp(Date.now());
  webhooks.emit(
    'issue_comment',
    'created',
    {
      issue: {
        number: issue.number,
        ...(issue.pull !== null && { pull_request: { number: issue.number } }),
      },
      comment: { id: comment.id, body },
    },
    user,
  );
  return comment.id;
}
