import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Processes started for agent runs of this repository (they carry a per-run CLAUDE_CONFIG_DIR). */
export function agentProcessesOf(repoRoot: string): number[] {
  const marker = `CLAUDE_CONFIG_DIR=${join(repoRoot, '.flotilla/claude/runs')}/`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/environ`, 'latin1')
          .split('\0')
          .some((v) => v.startsWith(marker));
      } catch {
        return false;
      }
    })
    .map(Number);
}
