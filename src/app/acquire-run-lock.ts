import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { messageOf } from '../shared/message-of.ts';

/** Held by the one control plane running in a repository; `release()` gives it up (idempotent). */
export interface RunLock {
  path: string;
  release(): void;
}

/** Another control plane runs in this repository (or a lock could not be taken); the message says what to do. */
export class RunLockError extends Error {
  override name = 'RunLockError';
}

interface LockRecord {
  pid: number;
  /** The process's start time (Linux: clock ticks since boot), so a recycled pid is not mistaken for it. */
  processStart: string | null;
  hostname: string;
  startedAt: string;
}

export interface RunLockOptions {
  /** Test seams: the process taking the lock, and how to read a process's start time. */
  pid?: number;
  readProcessStart?: (pid: number) => string | null;
  isProcessAlive?: (pid: number) => boolean;
  now?: () => Date;
  /**
   * Cluster mode: this process holds the controller lease, which outranks the file; a holder still alive
   * (a deposed controller on this machine, paused) is overwritten — its writes are fenced.
   */
  takeOver?: boolean;
}

const LOCK_FILE = 'run.lock';

/**
 * Takes `<stateDir>/run.lock` for the control plane, so a second `flotilla run` in the same repository refuses
 * to start instead of "recovering" the first one (it would record its runs as failed, end its agents and
 * remove their worktrees). A lock left by a process that is gone (killed, crashed, or a pid since reused) is
 * taken over. Throws RunLockError naming the holder when it is alive.
 */
export function acquireRunLock(stateDir: string, options: RunLockOptions = {}): RunLock {
  const pid = options.pid ?? process.pid;
  const readProcessStart = options.readProcessStart ?? readLinuxProcessStart;
  const isProcessAlive = options.isProcessAlive ?? isPidAlive;
  const path = join(stateDir, LOCK_FILE);
  mkdirSync(stateDir, { recursive: true });
  const record: LockRecord = {
    pid,
    processStart: readProcessStart(pid),
    hostname: hostname(),
    startedAt: (options.now?.() ?? new Date()).toISOString(),
  };

  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (tryCreate(path, record)) return buildLock(path, record);
    const holder = readLock(path);
    if (
      options.takeOver !== true &&
      holder !== null &&
      holdsLock(holder, { readProcessStart, isProcessAlive })
    ) {
      throw new RunLockError(
        `flotilla is already running in this repository (pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}); stop it first (q in its dashboard, or Ctrl-C). If that process is gone, remove ${path}.`,
      );
    }
    // Stale (its process is gone) or unreadable: take it over. Should another process take it between the
    // unlink and the create, the second attempt finds that one alive and refuses.
    try {
      unlinkSync(path);
    } catch (error) {
      if (!hasErrorCode(error, 'ENOENT')) throw error;
    }
  }
  throw new RunLockError(`could not take ${path}: another flotilla took it at the same time`);
}

function tryCreate(path: string, record: LockRecord): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if (hasErrorCode(error, 'EEXIST')) return false;
    throw new RunLockError(`could not create ${path}: ${messageOf(error)}`);
  }
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function buildLock(path: string, record: LockRecord): RunLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Only our own lock: if it was removed and taken by another process meanwhile, that one keeps it.
      const current = readLock(path);
      if (current?.pid !== record.pid || current.startedAt !== record.startedAt) return;
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
}

/** The lock's record, or null when the file is missing or not a lock record (e.g. cut short by a crash). */
function readLock(path: string): LockRecord | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return {
      pid: value.pid,
      processStart: typeof value.processStart === 'string' ? value.processStart : null,
      hostname: typeof value.hostname === 'string' ? value.hostname : 'unknown host',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : 'an unknown time',
    };
  } catch {
    return null;
  }
}

function holdsLock(
  holder: LockRecord,
  probes: { readProcessStart: (pid: number) => string | null; isProcessAlive: (pid: number) => boolean },
): boolean {
  // A lock from another machine (a repository on a shared disk) cannot be checked: assume it is held.
  if (holder.hostname !== hostname()) return true;
  if (!probes.isProcessAlive(holder.pid)) return false;
  const start = probes.readProcessStart(holder.pid);
  // The same pid with another start time is a different process that reused the number.
  return holder.processStart === null || start === null || start === holder.processStart;
}

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return hasErrorCode(error, 'EPERM');
  }
  // A zombie (exited, not yet reaped by its parent) still answers signal 0 but runs nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null where there is no /proc. */
function readLinuxProcessStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name (which may contain spaces and parens) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
