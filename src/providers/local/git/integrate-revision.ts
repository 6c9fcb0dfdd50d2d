import { runGit } from '../../../process/run-command.ts';
import { type GitIdentity, STACK_BASE_TRAILER } from '../../shared/create-branch-from-patch.ts';

export interface IntegrateRevisionParams {
  repoRoot: string;
  defaultBranch: string;
  /** The revision branch, e.g. `flotilla/12`. */
  branchName: string;
  /** The head the tracker recorded (the one that was checked and reviewed); the branch must still be there. */
  headSHA: string;
  /** Message of the merge commit, when one is needed. */
  message: string;
  /** Author and committer of the merge commit when the repository has no git identity configured. */
  fallbackIdentity: GitIdentity;
  /**
   * How (`flotilla merge --merge|--squash|--rebase`, like `gh pr merge`). Default: a fast-forward when the
   * default branch is an ancestor of the head, else a merge commit. `merge`: always a merge commit.
   * `squash`: one new commit on the default branch with the revision's changes and `message`. `rebase`: the
   * revision's commit replayed onto the default branch (its author and message kept); a fast-forward when
   * it already sits on it.
   */
  method?: MergeMethod;
  /**
   * The merge queue's merge (issue #30 §5): only a fast-forward, so the default branch ends exactly at the
   * head whose checks passed; a default branch that moved since the head was built on it is refused.
   */
  fastForwardOnly?: boolean;
}

export type MergeMethod = 'default' | 'merge' | 'squash' | 'rebase';

export interface IntegrateRevisionResult {
  /** `already-merged`: the default branch already contains the head; nothing was written. */
  strategy: 'fast-forward' | 'merge-commit' | 'squash' | 'rebase' | 'already-merged';
  previousSHA: string;
  mergedSHA: string;
  /** The worktree whose checkout was fast-forwarded (the default branch was checked out there), or null. */
  updatedWorktree: string | null;
}

/**
 * The merge was refused and nothing was changed: `message` says why and what to do, `details` lists the
 * files involved (conflicting files, or the checkout's uncommitted changes), one per entry.
 */
export class IntegrateRevisionError extends Error {
  readonly details: readonly string[];

  constructor(message: string, details: readonly string[] = []) {
    super(message);
    this.name = 'IntegrateRevisionError';
    this.details = details;
  }
}

/**
 * Brings `headSHA` into the default branch, all or nothing (used by `flotilla merge` and by the local
 * provider's `mergeRevision`, so a merge from the CLI and one from the engine behave the same):
 * 1. the result is computed without any checkout — the head itself when it is a fast-forward, else a merge
 *    commit built with `git merge-tree --write-tree` + `git commit-tree` (git ≥ 2.38). A conflict stops here,
 *    before any ref or file changes.
 * 2. Default branch checked out nowhere: compare-and-swap `update-ref` (no working tree is involved).
 *    Checked out in a worktree (usually the user's own checkout): moving the ref behind its back would make
 *    the checkout look as if it reverted the merge, so that worktree must have no changes to tracked files,
 *    and it is advanced with `git merge --ff-only <result>`, which git itself refuses rather than overwrite
 *    anything (untracked files included). This is the one place the local provider touches a working tree,
 *    and only on an explicit merge.
 * Refusals throw IntegrateRevisionError; an unexpected git failure throws whatever runGit threw.
 */
export async function integrateRevision(params: IntegrateRevisionParams): Promise<IntegrateRevisionResult> {
  const plan = await planIntegration(params);
  if (plan.strategy === 'already-merged') return { ...plan, updatedWorktree: null };
  return applyIntegration(params, plan);
}

/** What an integration will write: the default branch's head now and the commit it moves to. */
export interface IntegrationPlan {
  strategy: IntegrateRevisionResult['strategy'];
  previousSHA: string;
  mergedSHA: string;
}

/**
 * Step 1 of integrateRevision: every check and the result commit (the head, a merge commit or a replayed
 * one), written as an unreferenced object; no ref or file changes. `already-merged`: nothing to write.
 */
export async function planIntegration(params: IntegrateRevisionParams): Promise<IntegrationPlan> {
  const { repoRoot, defaultBranch, branchName, headSHA } = params;
  const git = (args: string[], okExitCodes: number[] = [0], cwd = repoRoot, env?: Record<string, string>) =>
    runGit(args, { cwd, okExitCodes, env });
  const defaultRef = `refs/heads/${defaultBranch}`;

  const base = await git(['rev-parse', '--verify', '--quiet', `${defaultRef}^{commit}`], [0, 1]);
  if (base.exitCode !== 0) {
    throw new IntegrateRevisionError(
      `the default branch ${defaultBranch} does not exist; set defaultBranch in flotilla.config.json`,
    );
  }
  const previousSHA = base.stdout.trim();
  const branch = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branchName}^{commit}`], [0, 1]);
  if (branch.exitCode !== 0) {
    throw new IntegrateRevisionError(`the revision branch ${branchName} is gone; nothing was merged`);
  }
  if (branch.stdout.trim() !== headSHA) {
    throw new IntegrateRevisionError(
      `${branchName} is at ${branch.stdout.trim().slice(0, 12)} but the approved revision is ${headSHA.slice(0, 12)}; ` +
        'the branch moved after the review, so it is not merged (let the engine record and review the new head)',
    );
  }

  const isAncestor = async (ancestor: string, descendant: string) =>
    (await git(['merge-base', '--is-ancestor', ancestor, descendant], [0, 1])).exitCode === 0;
  if (await isAncestor(headSHA, previousSHA)) {
    return { strategy: 'already-merged', previousSHA, mergedSHA: previousSHA };
  }
  await assertStackBaseMerged(git, { branchName, defaultBranch, previousSHA, headSHA, isAncestor });

  const method = params.method ?? 'default';
  const fastForward = await isAncestor(previousSHA, headSHA);
  if (params.fastForwardOnly === true && (!fastForward || method !== 'default')) {
    throw new IntegrateRevisionError(
      `${branchName} does not sit on ${defaultBranch}'s head ${previousSHA.slice(0, 12)} any more (the branch moved); the merge queue merges only what its checks passed on. Nothing was changed`,
    );
  }
  let strategy: IntegrateRevisionResult['strategy'] = 'fast-forward';
  let mergedSHA = headSHA;
  if (method === 'rebase' && !fastForward) {
    // Replaying one commit is a faithful rebase; a branch with more (edited by hand) is not guessed at.
    const parent = await git(['rev-parse', '--verify', '--quiet', `${headSHA}^1`], [0, 1]);
    if (parent.exitCode !== 0 || !(await isAncestor(parent.stdout.trim(), previousSHA))) {
      throw new IntegrateRevisionError(
        `${branchName} has more than one commit on top of ${defaultBranch}; --rebase replays exactly one. Use --squash or --merge; nothing was changed`,
      );
    }
  }
  if (!fastForward || method === 'merge' || method === 'squash') {
    const merged = await git(['merge-tree', '--write-tree', '--name-only', previousSHA, headSHA], [0, 1]);
    const [tree = '', ...rest] = merged.stdout.split('\n');
    if (merged.exitCode !== 0) {
      const conflicted = rest.slice(0, Math.max(0, rest.indexOf(''))).filter((path) => path !== '');
      throw new IntegrateRevisionError(
        `${branchName} conflicts with ${defaultBranch}; nothing was changed. Resolve it by sending the item back (\`flotilla work transition <id> pending\`) or merge by hand. Conflicting files:`,
        [...new Set(conflicted)],
      );
    }
    const identity = await committerIdentityEnv(repoRoot, params.fallbackIdentity);
    if (method === 'squash' || method === 'rebase') {
      strategy = method;
      const replayed = method === 'rebase' ? await readCommitForReplay(repoRoot, headSHA) : null;
      mergedSHA = (
        await git(
          ['commit-tree', tree.trim(), '-p', previousSHA, '-m', replayed?.message ?? params.message],
          [0],
          repoRoot,
          { ...identity, ...replayed?.authorEnv },
        )
      ).stdout.trim();
    } else {
      strategy = 'merge-commit';
      mergedSHA = (
        await git(
          ['commit-tree', tree.trim(), '-p', previousSHA, '-p', headSHA, '-m', params.message],
          [0],
          repoRoot,
          identity,
        )
      ).stdout.trim();
    }
  }
  return { strategy, previousSHA, mergedSHA };
}

/**
 * Step 2 of integrateRevision: the default branch moved from the plan's previousSHA to its mergedSHA —
 * a compare-and-swap when it is checked out nowhere, else `git merge --ff-only` in its clean checkout.
 */
export async function applyIntegration(
  params: Pick<IntegrateRevisionParams, 'repoRoot' | 'defaultBranch' | 'branchName'>,
  plan: IntegrationPlan,
): Promise<IntegrateRevisionResult> {
  const { repoRoot, defaultBranch, branchName } = params;
  const { previousSHA, mergedSHA } = plan;
  const git = (args: string[], okExitCodes: number[] = [0], cwd = repoRoot) =>
    runGit(args, { cwd, okExitCodes });
  const defaultRef = `refs/heads/${defaultBranch}`;
  const worktree = await findCleanCheckout(repoRoot, defaultBranch);
  if (worktree === null) {
    // Compare-and-swap: fails (nothing written) if someone moved the branch since we read it.
    await git(['update-ref', '-m', `flotilla merge ${branchName}`, defaultRef, mergedSHA, previousSHA]);
    return { ...plan, updatedWorktree: null };
  }
  const advanced = await git(['merge', '--ff-only', '--quiet', mergedSHA], [0, 1, 128], worktree);
  if (advanced.exitCode !== 0) {
    throw new IntegrateRevisionError(
      `git could not fast-forward ${defaultBranch} in ${worktree}; nothing was changed: ${(advanced.stderr || advanced.stdout).trim()}`,
    );
  }
  return { ...plan, updatedWorktree: worktree };
}

/**
 * The worktree with the default branch checked out (null: none); one with changes to tracked files is
 * refused (IntegrateRevisionError listing them), as a merge must not move a branch under someone's edits.
 */
export async function findCleanCheckout(repoRoot: string, defaultBranch: string): Promise<string | null> {
  const worktree = await findWorktreeWithBranch(repoRoot, `refs/heads/${defaultBranch}`);
  if (worktree === null) return null;
  const status = await runGit(['status', '--porcelain', '--untracked-files=no'], { cwd: worktree });
  if (status.stdout.trim() !== '') {
    throw new IntegrateRevisionError(
      `${defaultBranch} is checked out in ${worktree} with uncommitted changes; commit or stash them (or check out another branch) and run merge again. Nothing was changed. Changed files:`,
      status.stdout.trimEnd().split('\n'),
    );
  }
  return worktree;
}

/**
 * Stacked revisions (issue #30) merge after what they build on: every `Flotilla-Builds-On` base among the
 * revision's commits must be in the default branch — as history (a merge or fast-forward of it), or as
 * content (it was squashed or rebased: merging it into the default branch would change nothing). Else the
 * merge would bring in unmerged work: refused.
 */
async function assertStackBaseMerged(
  git: (args: string[], okExitCodes?: number[]) => ReturnType<typeof runGit>,
  context: {
    branchName: string;
    defaultBranch: string;
    previousSHA: string;
    headSHA: string;
    isAncestor: (ancestor: string, descendant: string) => Promise<boolean>;
  },
): Promise<void> {
  const { branchName, defaultBranch, previousSHA, headSHA, isAncestor } = context;
  const log = await git(['log', '--format=%B', `${previousSHA}..${headSHA}`]);
  const trailer = new RegExp(`^${STACK_BASE_TRAILER}: ([0-9a-f]{40}|[0-9a-f]{64})$`);
  const bases = new Set(log.stdout.split('\n').flatMap((line) => trailer.exec(line.trim())?.[1] ?? []));
  for (const base of bases) {
    if (await isAncestor(base, previousSHA)) continue;
    const merged = await git(['merge-tree', '--write-tree', previousSHA, base], [0, 1]);
    const tip = await git(['rev-parse', `${previousSHA}^{tree}`]);
    if (merged.exitCode === 0 && merged.stdout.split('\n')[0]?.trim() === tip.stdout.trim()) continue;
    throw new IntegrateRevisionError(
      `${branchName} builds on ${base.slice(0, 12)}, work ${defaultBranch} does not hold yet; merge the revisions it builds on first (its description names them). Nothing was changed`,
    );
  }
}

/** The worktree (main or linked) that has `ref` checked out, or null. */
export async function findWorktreeWithBranch(repoRoot: string, ref: string): Promise<string | null> {
  const { stdout } = await runGit(['worktree', 'list', '--porcelain'], { cwd: repoRoot });
  for (const block of stdout.split('\n\n')) {
    const lines = block.split('\n');
    const path = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
    if (path !== undefined && lines.includes(`branch ${ref}`) && !lines.includes('bare')) return path;
  }
  return null;
}

/** The user's own git identity for the merge commit when configured; the fallback otherwise. */
async function committerIdentityEnv(
  repoRoot: string,
  fallback: GitIdentity,
): Promise<Record<string, string> | undefined> {
  const ident = await runGit(['var', 'GIT_COMMITTER_IDENT'], { cwd: repoRoot, okExitCodes: [0, 128] }).catch(
    () => null,
  );
  if (ident !== null && ident.exitCode === 0) return undefined;
  const { name, email } = fallback;
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
}

/** The author (name, email, date) and the full message of `sha`, to replay it as a rebase does. */
async function readCommitForReplay(
  repoRoot: string,
  sha: string,
): Promise<{ message: string; authorEnv: Record<string, string> }> {
  const { stdout } = await runGit(['show', '-s', '--format=%an%x00%ae%x00%aI%x00%B', sha], { cwd: repoRoot });
  const [name = '', email = '', date = '', ...message] = stdout.split('\0');
  return {
    message: message.join('\0').replace(/\n+$/, '\n'),
    authorEnv: { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date },
  };
}
