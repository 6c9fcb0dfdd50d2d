import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface KillProcessesWithEnvOptions {
  /** Default `/proc`. */
  procDir?: string;
  /** Default `process.kill`. */
  kill?: (pid: number, signal: NodeJS.Signals) => void;
}

/**
 * SIGKILLs every process (but this one) with an environment variable `matches` accepts, as `NAME=value`:
 * processes Flotilla started inherit a marker variable (a run's CLAUDE_CONFIG_DIR, a checks worktree), and so
 * do the ones they started, even those that left the process group (the `claude` CLI runs each Bash tool in
 * a session of its own). Linux only (reads /proc); elsewhere nothing is found. Returns the pids signalled.
 */
export function killProcessesWithEnv(
  matches: (variable: string) => boolean,
  options: KillProcessesWithEnvOptions = {},
): number[] {
  const procDir = options.procDir ?? '/proc';
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(join(procDir, entry, 'environ'), 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.split('\0').some(matches)) continue;
    try {
      kill(Number(entry), 'SIGKILL');
      killed.push(Number(entry));
    } catch {
      // It ended in the meantime.
    }
  }
  return killed;
}
