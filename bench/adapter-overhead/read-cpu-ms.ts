import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU times in these ticks (100 on every mainstream kernel build). */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds used so far by this process and by its children that have exited (the SDK's CLI, codex,
 * git, the fake agent): on a shared, loaded machine the CPU a side costs moves far less than its wall
 * time. Null where /proc is missing (the bench then prints wall time only).
 */
export function readCpuMs(): number | null {
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
