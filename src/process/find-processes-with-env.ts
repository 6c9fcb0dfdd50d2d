import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A process and the first of its environment variables (`NAME=value`) the matcher accepted. */
export interface ProcessWithEnv {
  pid: number;
  variable: string;
}

/**
 * Every process but this one with an environment variable `matches` accepts: processes Flotilla starts
 * inherit a marker variable (a run's CLAUDE_CONFIG_DIR, a checks worktree), and so do theirs. Linux only
 * (reads /proc); elsewhere nothing is found. Processes gone or not ours to read are skipped.
 */
export function findProcessesWithEnv(
  matches: (variable: string) => boolean,
  procDir = '/proc',
): ProcessWithEnv[] {
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return [];
  }
  const found: ProcessWithEnv[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(join(procDir, entry, 'environ'), 'latin1');
    } catch {
      continue;
    }
    const variable = environ.split('\0').find(matches);
    if (variable !== undefined) found.push({ pid: Number(entry), variable });
  }
  return found;
}
