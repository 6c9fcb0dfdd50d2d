import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Crash recovery for agent processes: when Flotilla is killed (kill -9, OOM), the `claude` CLI it started and
 * the tools that CLI runs are not killed with it. Every agent process Flotilla starts has a per-run
 * CLAUDE_CONFIG_DIR under `<stateDir>/claude/runs/`, inherited by its tools, so those are exactly the
 * processes to end. Linux only (reads /proc); elsewhere nothing is found. Returns the pids signalled.
 */
export function reapOrphanAgentProcesses(
  stateDir: string,
  options: { procDir?: string; kill?: (pid: number, signal: NodeJS.Signals) => void } = {},
): number[] {
  const procDir = options.procDir ?? '/proc';
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
  const marker = `CLAUDE_CONFIG_DIR=${join(stateDir, 'claude', 'runs')}/`;
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return [];
  }
  const reaped: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(join(procDir, entry, 'environ'), 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.split('\0').some((variable) => variable.startsWith(marker))) continue;
    try {
      kill(Number(entry), 'SIGKILL');
      reaped.push(Number(entry));
    } catch {
      // It ended in the meantime.
    }
  }
  return reaped;
}
