/**
 * The reason a worktree is locked with while a run has it (`git worktree lock --reason`), and what a later
 * manager reads back from `git worktree list --porcelain` (`locked <reason>`): whose process held it.
 */
const PREFIX = 'flotilla: agent run in progress (pid ';

export function buildRunLockReason(pid: number): string {
  return `${PREFIX}${pid})`;
}

/**
 * True when `reason` is a run lock of a process that is no longer alive on this machine (killed: a `kill -9`
 * of `flotilla run` or of a worker slot leaves its worktrees locked). Worktrees are local to their
 * repository's machine, so the pid is of this machine. Fails closed: a reason not of this form, this
 * process's own lock, or a live pid (a run still in it, or a pid reused since) is not stale.
 */
export function isStaleRunLock(
  reason: string | null,
  isAlive: (pid: number) => boolean = processIsAlive,
): boolean {
  if (reason === null || !reason.startsWith(PREFIX) || !reason.endsWith(')')) return false;
  const pid = Number(reason.slice(PREFIX.length, -1));
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  return !isAlive(pid);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
