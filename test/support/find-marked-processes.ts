import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A live process whose environment carries a marker variable. */
export interface MarkedProcess {
  pid: number;
  parentPid: number;
  /** Its command line, arguments separated by spaces. */
  command: string;
}

/**
 * Every process (but this one) whose environment holds `variable` exactly (`NAME=value`). Children inherit
 * the environment, so a process reparented to PID 1 after its parent died is still found. Zombies (already
 * ended, not yet reaped) have an empty environment and are left out. Linux only; elsewhere nothing is found.
 */
export function findMarkedProcesses(variable: string, procDir = '/proc'): MarkedProcess[] {
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return [];
  }
  const found: MarkedProcess[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(join(procDir, entry, 'environ'), 'latin1');
      if (!environ.split('\0').includes(variable)) continue;
      // Field 4 of stat, after the parenthesised command name (which may hold spaces and parentheses).
      const stat = readFileSync(join(procDir, entry, 'stat'), 'utf8');
      const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(join(procDir, entry, 'cmdline'), 'utf8')
        .split('\0')
        .join(' ')
        .trim();
      found.push({ pid: Number(entry), parentPid, command });
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

/**
 * Polls `find` until it returns nothing or `graceMs` has passed (a process being torn down gets that long to
 * end); returns what is left then.
 */
export async function waitForNoProcesses(
  find: () => MarkedProcess[],
  options: { graceMs: number; pollMs: number },
): Promise<MarkedProcess[]> {
  const deadline = Date.now() + options.graceMs;
  for (;;) {
    const left = find();
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
