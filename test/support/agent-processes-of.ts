import { join } from 'node:path';
import { processesWithEnvironment } from './processes-with-environment.ts';

/** Processes started for agent runs of this repository (they carry a per-run CLAUDE_CONFIG_DIR). */
export function agentProcessesOf(repoRoot: string): number[] {
  return processesWithEnvironment(`CLAUDE_CONFIG_DIR=${join(repoRoot, '.flotilla/claude/runs')}/`);
}
