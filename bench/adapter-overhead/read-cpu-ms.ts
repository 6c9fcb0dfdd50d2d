import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Linux's USER_HZ: /proc reports CPU times in these ticks (100 on every mainstream kernel build). */
const TICKS_PER_SECOND = 100;

/** The cgroup v1 CPU accounting hierarchy (root may make groups in it). */
const CPUACCT_ROOT = '/sys/fs/cgroup/cpuacct';

/** Where the bench's CPU time is read from, said in its output. */
export type CpuSource = 'cgroup' | 'proc' | 'none';

let group: string | null = null;

/**
 * Moves this process into a CPU accounting cgroup of its own (cgroup v1 `cpuacct`, root only), so that
 * `readCpuMs` counts every process it starts, to the last: also those inside a sandbox's PID namespace, which
 * bwrap's init reaps and this process never waits for (its children's times in /proc then miss them). The
 * group is left and removed at exit. Returns where CPU time will be read from.
 */
export function startCpuAccounting(): CpuSource {
  const dir = join(CPUACCT_ROOT, `flotilla-bench-${process.pid}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'cgroup.procs'), String(process.pid));
    group = dir;
    process.once('exit', () => {
      try {
        writeFileSync(join(CPUACCT_ROOT, 'cgroup.procs'), String(process.pid));
        rmdirSync(dir);
      } catch {
        // A child still in it (killed at exit): the empty group stays; nothing depends on it.
      }
    });
    return 'cgroup';
  } catch {
    try {
      rmdirSync(dir);
    } catch {}
    return readCpuMs() === null ? 'none' : 'proc';
  }
}

/**
 * CPU milliseconds used so far: with `startCpuAccounting`'s group, by this process and everything it
 * started (sandboxed processes included); otherwise by this process and its children that have exited and
 * been waited for (the SDK's CLI, codex, git, the fake agent — not what runs in a sandbox). On a shared,
 * loaded machine the CPU a side costs moves far less than its wall time. Null where /proc is missing.
 */
export function readCpuMs(): number | null {
  if (group !== null) {
    try {
      return Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e6;
    } catch {
      // fall through to /proc
    }
  }
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return null;
  }
  // Fields after the `(comm)`: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = Number(fields[13]) + Number(fields[14]);
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + (children * 1000) / TICKS_PER_SECOND;
}
