import { randomBytes } from 'node:crypto';
import { readFile, realpath, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CommandError, outputTail, runCommand, runGit } from '../process/run-command.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { messageOf } from '../shared/message-of.ts';
import { applyWorktreeStart } from './apply-worktree-start.ts';
import { buildPortEnv } from './build-port-env.ts';
import { copyLocalFiles } from './copy-local-files.ts';
import { isValidBranchName } from './is-valid-branch-name.ts';
import { resolveSetupCommand } from './resolve-setup-command.ts';
import { buildRunLockReason, isStaleRunLock } from './run-lock-reason.ts';
import type { Worktree, WorktreeManager, WorktreeManagerOptions } from './worktree-manager-types.ts';

export type { Worktree, WorktreeManager, WorktreeManagerOptions } from './worktree-manager-types.ts';

export const WORKTREES_DIR = '.worktrees';

const DEFAULT_SETUP_TIMEOUT_MS = 10 * 60_000;
/** SHA-1 or SHA-256 object name. */
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const GIT_TIMEOUT_MS = 5 * 60_000;
/** Spares are scratch branches like the runtimes' (`agent/…`), never a provider's `flotilla/<id>`. */
const SPARE_BRANCH_PREFIX = 'agent/ahead/';
/** Spares kept from a run's end on: a run starting then takes one made earlier, never one being checked out. */
const SPARE_POOL_SIZE = 2;

/** Resolves on a later turn of the event loop: work queued behind a caller starts after it has gone on. */
const nextTurn = () => new Promise<void>((resume) => setImmediate(resume));

/**
 * Whether a worktree path is a spare's (prepareAhead): a checkout made ahead for no run yet, so recovery
 * reaping one is housekeeping, not a run's leftover.
 */
export function isSpareWorktreePath(path: string): boolean {
  return path.includes(`${sep}${WORKTREES_DIR}${sep}${SPARE_BRANCH_PREFIX}`);
}

interface ListedWorktree {
  path: string;
  branch: string | null;
  /** `git worktree lock`'s reason, or null; a run lock of a dead process goes (run-lock-reason.ts). */
  locked: string | null;
}

export function createWorktreeManager(options: WorktreeManagerOptions): WorktreeManager {
  const { repoRoot, defaultBranch, logger, ports } = options;
  const setupTimeoutMs = options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;
  const worktreesDir = join(repoRoot, WORKTREES_DIR);
  // git mutations of one repository are serialised: concurrent `worktree add/remove` race on git's locks.
  let gitQueue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(operation: () => Promise<T>): Promise<T> => {
    const next = gitQueue.then(operation, operation);
    gitQueue = next.catch(() => {});
    return next;
  };
  const git = (args: string[], cwd = repoRoot) => runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS });
  /** `.worktrees/` did not exist before this manager's first worktree: it is ours to remove once empty. */
  let createdWorktreesDir = false;
  /** Where worktrees start: the default branch, or the commit a `start.from` made its tip (issue #30). */
  let base = defaultBranch;

  function pathFor(branchName: string): string {
    return join(worktreesDir, branchName);
  }

  /** Git's own rules, checked in process: a run's worktree costs as few git calls as it can. */
  function assertValidBranchName(branchName: string): void {
    const target = resolve(worktreesDir, branchName);
    const inside = relative(worktreesDir, target);
    const escapes = inside === '' || inside.startsWith('..') || isAbsolute(inside);
    if (escapes || !isValidBranchName(branchName))
      throw new Error(`Invalid branch name for a worktree: "${branchName}"`);
  }

  async function listWorktrees(): Promise<ListedWorktree[]> {
    const { stdout } = await git(['worktree', 'list', '--porcelain']);
    const listed: ListedWorktree[] = [];
    for (const record of stdout.split('\n\n')) {
      let path: string | null = null;
      let branch: string | null = null;
      let locked: string | null = null;
      for (const line of record.split('\n')) {
        if (line === 'locked' || line.startsWith('locked ')) locked = line.slice('locked '.length);
        if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
        if (line.startsWith('branch refs/heads/')) branch = line.slice('branch refs/heads/'.length);
      }
      if (path !== null) listed.push({ path, branch, locked });
    }
    return listed;
  }

  /** Git prints resolved paths; compare real paths so a symlinked tmpdir or repo root still matches. */
  async function canonical(path: string): Promise<string> {
    try {
      return await realpath(path);
    } catch {
      return resolve(path);
    }
  }

  async function findRegistered(path: string): Promise<ListedWorktree | null> {
    const wanted = await canonical(path);
    for (const worktree of await listWorktrees()) {
      if ((await canonical(worktree.path)) === wanted) return worktree;
    }
    return null;
  }

  async function pathExists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The directories `git worktree add` made for a nested path (`agent/flotilla/` for `agent/flotilla/7`) stay
   * behind when it is removed: remove those left empty, up to `.worktrees/` (exclusive; see
   * removeWorktreesDirIfMade). Under `exclusive`, so no creation is between making a directory and using it.
   */
  async function removeEmptyParents(path: string): Promise<void> {
    for (let dir = dirname(path); dir.startsWith(worktreesDir + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch (error) {
        if (!hasErrorCode(error, 'ENOENT')) return; // not empty (or not ours to judge)
      }
    }
  }

  /** `.worktrees/` if it made it, once empty: at settle only (a run's sandbox hides it: a mount point). */
  async function removeWorktreesDirIfMade(): Promise<void> {
    if (!createdWorktreesDir) return;
    await rmdir(worktreesDir).then(
      () => {
        createdWorktreesDir = false;
      },
      () => {},
    );
  }

  /**
   * The commit a branch `git worktree add -B` just wrote points at, read from its loose ref file: one git
   * process less per run. Null when the repository keeps its refs elsewhere (reftable, a `.git` file, an
   * unexpected content); the caller then asks git.
   */
  async function readLooseBranchRef(branchName: string): Promise<string | null> {
    try {
      const ref = (await readFile(join(repoRoot, '.git', 'refs', 'heads', branchName), 'utf8')).trim();
      return COMMIT_SHA.test(ref) ? ref : null;
    } catch {
      return null;
    }
  }

  async function branchExists(branchName: string): Promise<boolean> {
    const { exitCode } = await git(['show-ref', '--verify', '--quiet', `refs/heads/${branchName}`]).catch(
      (error: unknown) => {
        if (error instanceof CommandError && error.exitCode === 1) return { exitCode: 1 };
        throw error;
      },
    );
    return exitCode === 0;
  }

  /** Step 1 of creation: a leftover from an interrupted run must go, or creation must fail. */
  async function removeStale(path: string): Promise<void> {
    await git(['worktree', 'prune']);
    const registered = await findRegistered(path);
    if (registered !== null) {
      const force = isStaleRunLock(registered.locked) ? ['--force', '--force'] : ['--force'];
      logger.info('Removing stale worktree', { path, locked: registered.locked });
      try {
        await git(['worktree', 'remove', ...force, path]);
      } catch (error) {
        throw new Error(`Could not remove the stale worktree at ${path}: ${messageOf(error)}`, {
          cause: error,
        });
      }
      return;
    }
    if (await pathExists(path)) {
      // A directory git does not know as a worktree (e.g. its admin files were pruned): ours to delete.
      logger.info('Removing stale directory at a worktree path', { path });
      try {
        await rm(path, { recursive: true, force: true });
      } catch (error) {
        throw new Error(`Could not remove the stale directory at ${path}: ${messageOf(error)}`, {
          cause: error,
        });
      }
    }
  }

  async function removeUnlocked(branchName: string, path: string, deleteBranch = true): Promise<void> {
    // The usual case first, in one git call each, side by side: the worktree is registered and git removes
    // it, and the branch goes at the same time (`update-ref -d`, unlike `branch -D`, does not refuse a branch
    // a worktree still has checked out; a branch that is already gone is no error).
    const [removedByGit, branchDeleted] = await Promise.all([
      // Twice: a run's worktree is locked while its agent is in it (`create`).
      git(['worktree', 'remove', '--force', '--force', path]).then(
        () => true,
        () => false,
      ),
      deleteBranch
        ? git(['update-ref', '-d', `refs/heads/${branchName}`]).then(
            () => true,
            () => false,
          )
        : false,
    ]);
    if (!removedByGit) {
      try {
        if (await findRegistered(path)) await git(['worktree', 'remove', '--force', '--force', path]);
      } catch (error) {
        logger.warn('Could not remove worktree with git; deleting its directory', {
          path,
          error: messageOf(error),
        });
      }
    }
    try {
      if (!removedByGit) {
        if (await pathExists(path)) await rm(path, { recursive: true, force: true });
        await git(['worktree', 'prune']);
      }
      await removeEmptyParents(path);
    } catch (error) {
      logger.warn('Could not delete worktree directory', { path, error: messageOf(error) });
    }
    if (!deleteBranch || branchDeleted) return;
    // Likewise: delete the branch, and only when that fails ask whether there was one to delete.
    try {
      await git(['branch', '-D', branchName]);
    } catch (error) {
      if (await branchExists(branchName).catch(() => true))
        logger.warn('Could not delete local branch', { branchName, error: messageOf(error) });
    }
  }

  const copyPatterns = options.copy ?? [];

  /** `worktree.copy` into a fresh or refreshed checkout. */
  async function copyInto(path: string): Promise<void> {
    if (copyPatterns.length === 0) return;
    const copied = await copyLocalFiles({ repoRoot, worktreePath: path, patterns: copyPatterns });
    logger.debug('Local files copied into the worktree', { path, files: copied });
  }

  /** `worktree.teardownCommand` in a run's worktree before removal: a failure is logged, never blocks it. */
  async function runTeardown(path: string, worktreePorts: readonly number[] | undefined): Promise<void> {
    const command = options.teardownCommand?.trim() ?? '';
    if (command === '' || command === 'none' || !(await pathExists(path))) return;
    logger.info('Running worktree teardown command', { path, command });
    try {
      await runCommand('sh', ['-c', command], {
        cwd: path,
        timeoutMs: setupTimeoutMs,
        env: { ...(options.setupEnv ?? process.env), ...buildPortEnv(worktreePorts) },
      });
    } catch (error) {
      const reason =
        error instanceof CommandError
          ? `${error.timedOut ? `timed out after ${setupTimeoutMs} ms` : `exit code ${error.exitCode ?? error.signal}`}\n${outputTail(`${error.stdout}\n${error.stderr}`)}`
          : messageOf(error);
      logger.warn('Worktree teardown command failed; removing the worktree anyway', {
        path,
        command,
        reason,
      });
    }
  }

  /** Ports of the runs' worktrees this manager handed out, by path (for teardown and release). */
  const portsByPath = new Map<string, readonly number[]>();

  async function runSetup(worktree: Worktree): Promise<void> {
    const command = await resolveSetupCommand(options.setupCommand, worktree.path);
    if (command === null) {
      logger.debug('No worktree setup command', { path: worktree.path });
      return;
    }
    logger.info('Running worktree setup command', { path: worktree.path, command });
    try {
      // The setup command is a user-configured command line, so it goes through a shell.
      await runCommand('sh', ['-c', command], {
        cwd: worktree.path,
        timeoutMs: setupTimeoutMs,
        env: { ...(options.setupEnv ?? process.env), ...buildPortEnv(worktree.ports) },
      });
    } catch (error) {
      const reason =
        error instanceof CommandError
          ? `${error.timedOut ? `timed out after ${setupTimeoutMs} ms` : `exit code ${error.exitCode ?? error.signal}`}\n${outputTail(`${error.stdout}\n${error.stderr}`)}`
          : messageOf(error);
      throw new Error(`Worktree setup command "${command}" failed in ${worktree.path}: ${reason}`, {
        cause: error,
      });
    }
  }

  /** `git worktree add -B` at the default branch's tip; under `exclusive`. Leaves nothing behind on failure. */
  async function addUnlocked(branchName: string): Promise<Worktree> {
    const path = pathFor(branchName);
    const add = () =>
      git(['worktree', 'add', '--quiet', join(WORKTREES_DIR, branchName), '-B', branchName, base]);
    // Nothing at the path (the usual case): add at once. A stale record of a vanished worktree there
    // makes git refuse; then, as when something is at the path, the stale one goes first.
    const clear = !(await pathExists(path));
    if (!clear) await removeStale(path);
    if (!(await pathExists(worktreesDir))) createdWorktreesDir = true;
    try {
      await add().catch(async (error: unknown) => {
        if (!clear) throw error;
        await removeStale(path);
        await add();
      });
    } catch (error) {
      // The branch may predate this call (git refused to reset it): leave it, remove only the directory.
      await removeUnlocked(branchName, path, false);
      throw new Error(`Could not create the worktree for ${branchName} from ${base}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    try {
      const baseCommit =
        (await readLooseBranchRef(branchName)) ?? (await git(['rev-parse', 'HEAD'], path)).stdout.trim();
      await copyInto(path);
      return { branchName, path, baseCommit };
    } catch (error) {
      await removeUnlocked(branchName, path);
      throw error;
    }
  }

  /**
   * prepareAhead: spare worktrees being made or ready (null: that preparation failed), oldest first. Taken
   * by `create`, dropped by `settle` and `reapStaleWorktrees`.
   */
  const spares: Array<Promise<Worktree | null>> = [];
  /** Bumped by `settle`: a spare still queued from before is not made (shutdown would only remove it). */
  let generation = 0;

  function addSpare(): void {
    const branchName = `${SPARE_BRANCH_PREFIX}${randomBytes(4).toString('hex')}`;
    const queuedIn = generation;
    const preparing = exclusive(async () => {
      await nextTurn();
      return queuedIn === generation ? addUnlocked(branchName) : null;
    }).then(
      (worktree) => {
        if (worktree) logger.debug('Spare worktree prepared', { ...worktree });
        return worktree;
      },
      (error: unknown) => {
        logger.warn('Could not prepare a spare worktree', { branchName, error: messageOf(error) });
        return null;
      },
    );
    spares.push(preparing);
  }

  function prepareSpare(): void {
    if (options.prepareAhead && spares.length === 0) addSpare();
  }

  /** At a run's end (after its removal is queued): the pool back to SPARE_POOL_SIZE. */
  function replenishSpares(): void {
    if (!options.prepareAhead) return;
    while (spares.length < SPARE_POOL_SIZE) addSpare();
  }

  /** The default branch's tip now (a `start.from` commit), its loose ref file when there is one, else git. */
  async function defaultBranchTip(): Promise<string> {
    if (base !== defaultBranch) return base;
    return (
      (await readLooseBranchRef(defaultBranch)) ??
      (await git(['rev-parse', '--verify', '--quiet', `${defaultBranch}^{commit}`])).stdout.trim()
    );
  }

  /**
   * A spare made before the default branch moved, brought to its tip in place: it is pristine (no run has
   * had it), so a forced checkout of its own branch at the tip leaves exactly what `worktree add` would, and
   * rewrites only the files that changed. Under `exclusive`.
   */
  async function refreshUnlocked(worktree: Worktree): Promise<Worktree> {
    await git(['checkout', '--quiet', '--force', '-B', worktree.branchName, base], worktree.path);
    const baseCommit =
      (await readLooseBranchRef(worktree.branchName)) ??
      (await git(['rev-parse', 'HEAD'], worktree.path)).stdout.trim();
    await copyInto(worktree.path); // the checkout may have reset a tracked one
    return { ...worktree, baseCommit };
  }

  /**
   * The oldest spare, at the default branch's tip: as it was made when that is still the tip (so it is what
   * `git worktree add` would make now), else refreshed to it. Null when there is none, its preparation
   * failed, or it could not be refreshed (then it is removed behind).
   */
  async function takeSpare(): Promise<Worktree | null> {
    const worktree = await spares.shift(); // taken now, synchronously: a concurrent create takes another
    if (!worktree) return null;
    if (!(await pathExists(worktree.path))) {
      discardBehind(worktree);
      return null;
    }
    const tip = await defaultBranchTip().catch(() => null);
    if (tip === worktree.baseCommit) {
      logger.info('Worktree created (prepared ahead)', { ...worktree });
      return worktree;
    }
    try {
      const refreshed = await exclusive(() => refreshUnlocked(worktree));
      logger.info('Worktree created (prepared ahead, refreshed to the tip)', {
        ...refreshed,
        preparedAt: worktree.baseCommit,
      });
      return refreshed;
    } catch (error) {
      logger.warn('Could not refresh a stale spare worktree; discarding it', {
        ...worktree,
        error: messageOf(error),
      });
      discardBehind(worktree);
      return null;
    }
  }

  /** `start.from`: the default branch's tip from now on, once git confirms the commit is here. */
  async function adoptBase(from: string | undefined): Promise<void> {
    if (from === undefined || from === base) return;
    // Checked once per new tip: a worker's clone may lack what the leader fetched.
    const known = await git(['cat-file', '-e', `${from}^{commit}`]).then(
      () => true,
      () => false,
    );
    if (known) base = from;
    else
      logger.warn('Worktree start commit not in this repository; starting from the default branch', { from });
  }

  function discardBehind(worktree: Worktree): void {
    void exclusive(() => nextTurn().then(() => removeUnlocked(worktree.branchName, worktree.path))).catch(
      (error: unknown) => {
        logger.warn('Worktree removal failed', { branchName: worktree.branchName, error: messageOf(error) });
      },
    );
  }

  /** Until the git queue is idle, including work queued while waiting. */
  async function drainQueue(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = gitQueue;
      await tail;
    } while (tail !== gitQueue);
  }

  return {
    pathFor,
    localFiles: copyPatterns,
    prepareSpare,

    async create(branchName, createOptions) {
      assertValidBranchName(branchName);
      await adoptBase(createOptions?.start?.from);
      let worktree = await takeSpare();
      if (!worktree) {
        worktree = await exclusive(() => addUnlocked(branchName));
        logger.info('Worktree created', { ...worktree });
      }
      const { path } = worktree;
      try {
        const start = createOptions?.start;
        if (start !== undefined && (start.onto?.length || start.rebase !== undefined)) {
          const from = worktree;
          const applied = await exclusive(() =>
            applyWorktreeStart({
              path,
              branchName: from.branchName,
              tip: from.baseCommit,
              start,
              timeoutMs: GIT_TIMEOUT_MS,
            }),
          );
          await copyInto(path); // the clean removed the copies, a checkout may have reset a tracked one
          worktree = {
            ...worktree,
            baseCommit: applied.baseCommit,
            ...(applied.stacked && { stacked: true }),
            ...(applied.notes.length > 0 && { notes: applied.notes }),
          };
          logger.info('Worktree moved to its start', { path, ...applied, start });
        }
        if (copyPatterns.length > 0) worktree = { ...worktree, localFiles: copyPatterns };
        // Locked while a run has it: `git worktree prune` and other tools leave it alone, and `git worktree
        // list` says whose it is. Removal unlocks (a doubled --force).
        await exclusive(() => git(['worktree', 'lock', '--reason', buildRunLockReason(process.pid), path]));
        if (ports !== undefined) {
          const allocated = await ports.allocate(path);
          portsByPath.set(path, allocated);
          worktree = { ...worktree, ports: allocated };
        }
        if (createOptions?.setup !== false) await runSetup(worktree);
      } catch (error) {
        const created = worktree;
        await exclusive(() => removeUnlocked(created.branchName, path));
        portsByPath.delete(path);
        await ports?.release(path);
        throw error;
      }
      return worktree;
    },

    async remove(branchName) {
      // removeBehind: git is spawned on a later turn of the event loop, after the caller has gone on (a
      // spawn blocks the loop for milliseconds).
      const start = options.removeBehind ? nextTurn : () => Promise.resolve();
      const path = pathFor(branchName);
      const removal = exclusive(async () => {
        await start();
        await runTeardown(path, portsByPath.get(path));
        await removeUnlocked(branchName, path);
        portsByPath.delete(path);
        await ports?.release(path);
      }).then(
        () => logger.info('Worktree removed', { path: pathFor(branchName), branchName }),
        (error: unknown) => logger.warn('Worktree removal failed', { branchName, error: messageOf(error) }),
      );
      // A run has ended: spares for the runs after it, made now (behind the removal, on the same queue)
      // rather than while the next agent works.
      replenishSpares();
      // removeBehind: queued is enough; a later create of the same path waits for it on the same queue.
      if (!options.removeBehind) await removal;
    },

    async idle() {
      await drainQueue();
      await Promise.all(spares);
      await drainQueue();
    },

    async settle() {
      generation += 1;
      await drainQueue();
      for (const leftover of await Promise.all(spares.splice(0))) {
        if (leftover)
          await exclusive(() => removeUnlocked(leftover.branchName, leftover.path)).catch(() => {});
      }
      await drainQueue();
      await exclusive(removeWorktreesDirIfMade);
      // What shutdown waits for before the repository may go (the demo removes it): nothing of ours writes now.
      logger.debug('Worktrees settled', { repoRoot });
    },

    reapStaleWorktrees(reapOptions) {
      spares.length = 0; // spares being made are queued before the reap, so the reap removes them
      return exclusive(async () => {
        const root = (await canonical(worktreesDir)) + sep;
        const kept = new Set(await Promise.all((reapOptions?.keep ?? []).map((path) => canonical(path))));
        const removed: string[] = [];
        for (const worktree of await listWorktrees()) {
          const canonicalPath = await canonical(worktree.path);
          if (!canonicalPath.startsWith(root) || kept.has(canonicalPath)) continue;
          logger.info('Reaping stale worktree', { path: worktree.path, branch: worktree.branch });
          try {
            await git(['worktree', 'remove', '--force', '--force', worktree.path]);
          } catch (error) {
            logger.warn('Could not remove stale worktree with git; deleting its directory', {
              path: worktree.path,
              error: messageOf(error),
            });
            await rm(worktree.path, { recursive: true, force: true }).catch(() => {});
          }
          if (worktree.branch !== null) {
            await git(['branch', '-D', worktree.branch]).catch((error: unknown) => {
              logger.warn('Could not delete local branch', {
                branchName: worktree.branch,
                error: messageOf(error),
              });
            });
          }
          removed.push(worktree.path);
          await removeEmptyParents(join(worktreesDir, relative(root, canonicalPath)));
        }
        await git(['worktree', 'prune']);
        // Ports of worktrees a killed process left: free again (the kept sessions' stay theirs).
        await ports?.reap([...(reapOptions?.keep ?? [])]).catch((error: unknown) => {
          logger.warn('Could not release stale worktree ports', { error: messageOf(error) });
        });
        return removed;
      });
    },
  };
}
