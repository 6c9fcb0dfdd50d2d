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

/** What holds a clone's lock: `flotilla run` (the control plane), or a cluster's `flotilla worker`. */
export type RunLockHolder = 'control plane' | 'worker';

interface LockRecord {
  /** Absent in locks written before workers took it: a control plane. */
  holder: RunLockHolder;
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
   * Cluster mode: this process holds the controller lease, which outranks the file; a control plane still
   * alive holding it (a deposed controller on this machine, paused) is overwritten — its writes are fenced. A
   * live worker's lock is never taken over: its agents would be ended and their worktrees removed.
   */
  takeOver?: boolean;
  /** Default `control plane`. */
  holder?: RunLockHolder;
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
    holder: options.holder ?? 'control plane',
    pid,
    processStart: readProcessStart(pid),
    hostname: hostname(),
    startedAt: (options.now?.() ?? new Date()).toISOString(),
  };

  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (tryCreate(path, record)) return buildLock(path, record);
    const holder = readLock(path);
    const overrides = options.takeOver === true && holder?.holder === 'control plane';
    if (!overrides && holder !== null && holdsLock(holder, { readProcessStart, isProcessAlive })) {
      throw new RunLockError(refusalOf(holder, record.holder, path));
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

/** Why this process cannot take the lock `holder` holds, and what to do. */
function refusalOf(holder: LockRecord, taker: RunLockHolder, path: string): string {
  const who = `pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}`;
  const gone = `If that process is gone, remove ${path}.`;
  if (holder.holder === taker) {
    return holder.holder === 'worker'
      ? `a flotilla worker already runs in this clone (${who}); give it more --slots instead, or stop it first. ${gone}`
      : `flotilla is already running in this repository (${who}); stop it first (q in its dashboard, or Ctrl-C). ${gone}`;
  }
  // A worker's start ends the agents and removes the worktrees a killed one left: the two cannot share a clone.
  return holder.holder === 'worker'
    ? `a flotilla worker runs in this clone (${who}); run the controller in another clone of the repository. ${gone}`
    : `flotilla run (the controller) runs in this clone (${who}); start the worker in another clone of the repository. ${gone}`;
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
      holder: value.holder === 'worker' ? 'worker' : 'control plane',
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
