import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system) of this process, and of its children it waited for, in clock ticks. */
function ticksOf(pid: number): { own: number; children: number; ppid: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null; // ended meanwhile
  }
  // After the command name (which may hold parens): state ppid … utime(14) stime(15) cutime(16) cstime(17).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const at = (field: number) => Number(fields[field - 3]);
  return { own: at(14) + at(15), children: at(16) + at(17), ppid: at(4) };
}

/**
 * The CPU milliseconds one PostgreSQL server has used so far: its postmaster's own time and that of the
 * backends it reaped (a postmaster waits for every backend that exits), plus the live backends' own time.
 * Read from /proc before and after a run, the difference is the server's CPU for the run, whatever else runs
 * on the machine. `ticksPerSecond` is `getconf CLK_TCK` (100 on Linux).
 */
export function readPostgresCpuMs(postmasterPid: number, ticksPerSecond = 100): number {
  const postmaster = ticksOf(postmasterPid);
  if (postmaster === null) throw new Error(`no PostgreSQL postmaster with pid ${postmasterPid}`);
  let ticks = postmaster.own + postmaster.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = ticksOf(Number(entry));
    if (child?.ppid === postmasterPid) ticks += child.own;
  }
  return (ticks * 1000) / ticksPerSecond;
}
