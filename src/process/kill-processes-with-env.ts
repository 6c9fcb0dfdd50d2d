import { findProcessesWithEnv } from './find-processes-with-env.ts';

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
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
  const killed: number[] = [];
  for (const { pid } of findProcessesWithEnv(matches, options.procDir)) {
    try {
      kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // It ended in the meantime.
    }
  }
  return killed;
}
