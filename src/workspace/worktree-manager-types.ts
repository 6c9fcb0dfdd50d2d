import type { Logger } from '../logging/logger.ts';
import type { PortAllocator } from './create-port-allocator.ts';

/** What `createWorktreeManager` is given and gives: kept apart so the manager's file holds its behaviour. */
export interface WorktreeManagerOptions {
  /** Absolute path of the repository's main working tree. */
  repoRoot: string;
  /** Branch (or any commit-ish) new worktrees start from. */
  defaultBranch: string;
  /**
   * Shell command line run in each new worktree (through `sh -c`). Unset: detected from the lockfile;
   * `none`: no setup.
   */
  setupCommand?: string | null | undefined;
  logger: Logger;
  /** Default: 10 minutes. */
  setupTimeoutMs?: number;
  /** Environment for the setup command. Default: the parent's. */
  setupEnv?: NodeJS.ProcessEnv;
  /**
   * Keep spare worktrees prepared in the background (on `prepareSpare` and at each `remove`) at the default
   * branch's tip; `create` takes the oldest, refreshed to the tip if that has moved. Default: off.
   */
  prepareAhead?: boolean;
  /** `remove` resolves once the removal is queued rather than done; `settle` waits for it. Default: off. */
  removeBehind?: boolean;
  /**
   * `worktree.copy`: paths or globs (relative to the repository root) copied from the main checkout into
   * every worktree (spares included), never committed and never part of a patch. Default: none.
   */
  copy?: readonly string[];
  /** `worktree.teardownCommand`: run in a run's worktree before it is removed; a failure is only logged. */
  teardownCommand?: string | null | undefined;
  /** Gives each run's worktree its block of ports (`worktree.ports`); absent: no ports. */
  ports?: PortAllocator;
}

export interface Worktree {
  branchName: string;
  /** Absolute path: `<repoRoot>/.worktrees/<branchName>`. */
  path: string;
  /** The commit the worktree was created at; patches are taken against it, not the (moving) branch. */
  baseCommit: string;
  /** Its ports (`FLOTILLA_PORT`, `FLOTILLA_PORT_1`…, see build-port-env.ts), released when it is removed. */
  ports?: readonly number[];
  /** The `worktree.copy` patterns copied into it: `extractPatch` keeps them out of the patch. */
  localFiles?: readonly string[];
  /**
   * Set when it started from `WorktreeStart.onto` (stacked work) rather than the default branch: the patch
   * is against `baseCommit`, so a revision made from it must be committed on that commit too.
   */
  stacked?: boolean;
  /** What `create` did about its start that the run's transcript should say (a failed rebase, a fallback). */
  notes?: readonly string[];
}

/** Where a run's worktree starts, when not simply at the default branch's tip (issue #30). */
export interface WorktreeStart {
  /**
   * Commits the work builds on (its blockers' approved revisions): one is checked out, several are merged
   * in order. The result is the worktree's `baseCommit`. A commit this repository does not have is left out
   * (said in `notes`); none left: the default branch. Commits that do not merge together reject.
   */
  onto?: readonly string[];
  /**
   * A rework: the previous revision's head. Its commits are rebased onto the start (the default branch's
   * tip, or `onto`) so the agent continues its earlier work; a rebase that fails is aborted and the worktree
   * starts fresh (said in `notes`). The rebased work is above `baseCommit`, so the patch still holds it.
   */
  rebase?: string;
  /**
   * The commit that stands for the default branch's tip from now on (the tracker's default branch, fetched
   * into the repository just before: GitHub's moves without the clone's): this worktree and the spares made
   * after it start there, and a spare made earlier is refreshed to it. A commit the repository lacks is
   * ignored (logged).
   */
  from?: string;
}

export interface WorktreeCreateOptions {
  /** False: a checkout that builds nothing (no setup command). */
  setup?: boolean;
  /**
   * Where it starts (stacked work, a rework). Whatever it is, the worktree is cleaned of untracked files
   * before the local files are copied in, and is locked from then on until `remove`.
   */
  start?: WorktreeStart;
}

export interface WorktreeManager {
  /** Where the worktree for a branch lives. */
  pathFor(branchName: string): string;
  /**
   * The `worktree.copy` patterns: for a worktree whose record lacks them (a session resumed after a restart
   * is read back without them), so its patch still leaves the local files out.
   */
  readonly localFiles?: readonly string[];
  /**
   * Creates a clean worktree on a fresh branch from the default branch (a stale worktree at the path is
   * removed first) and runs the setup command in it (unless `setup: false`: a checkout that builds nothing).
   * Rejects — leaving nothing behind — when any step fails.
   * With `prepareAhead` the worktree may be the spare, under a generated branch name and path
   * (`agent/ahead/<8 hex>`), not `branchName`'s: callers must use the returned `branchName` and `path`,
   * and remove by the returned `branchName`.
   */
  create(branchName: string, options?: WorktreeCreateOptions): Promise<Worktree>;
  /**
   * Removes the worktree and deletes the local branch, then the directories left empty between it and
   * `.worktrees/` (e.g. `.worktrees/agent/flotilla/`), and `.worktrees/` itself when empty and this manager
   * created it. Idempotent; never throws (problems are logged).
   */
  remove(branchName: string): Promise<void>;
  /**
   * Crash recovery: removes every git worktree under `.worktrees/` (and its branch) and the directories left
   * empty below `.worktrees/`, then prunes stale worktree records. `.worktrees/` itself stays: a previous
   * process made it, or the user did, and that cannot be told apart. Call only while no run is active.
   * Returns the removed worktree paths. `keep`: worktrees of sessions waiting for a human's answers, left
   * as they are (with their branches).
   */
  reapStaleWorktrees(options?: { keep?: readonly string[] }): Promise<string[]>;
  /**
   * With `prepareAhead`: starts preparing a spare for the next `create`, unless there is one (ready or being
   * made). Runtimes call it once the agent of a run that took a worktree is under way, so a first run's
   * successor finds one; after that, each `remove` tops the spares up (two) behind the removal, off every
   * agent's session. A no-op without `prepareAhead`.
   */
  prepareSpare(): void;
  /**
   * Waits for every queued removal and spare preparation, leaving the spares (if any) ready: what a
   * benchmark waits for so that background git work is counted where it belongs.
   */
  idle(): Promise<void>;
  /**
   * Waits for every queued removal and spare preparation, then removes the spares, so nothing of this
   * manager's is left under `.worktrees/` but the worktrees of runs not yet removed. For shutdown; safe to
   * call twice, and a later `create` (and `prepareSpare`) still works.
   */
  settle(): Promise<void>;
}
