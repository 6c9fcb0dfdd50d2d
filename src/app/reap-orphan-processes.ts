import { join } from 'node:path';
import type { FlotillaPaths } from '../config/index.ts';
import {
  type KillProcessesWithEnvOptions,
  killProcessesWithEnv,
} from '../process/kill-processes-with-env.ts';
import { CHECKS_WORKTREE_VARIABLE } from '../providers/local/git/run-local-checks.ts';
import { CHECKS_WORKTREE_PREFIX } from '../providers/shared/local-scratch-dir.ts';
import { RUNTIME_REGISTRY } from '../runtimes/registry.ts';

/**
 * Crash recovery for the processes Flotilla starts: when it is killed (kill -9, OOM), the `claude` CLI of an
 * agent and the tools it runs, and a checks command and what it started, are not killed with it. Every agent
 * process has a per-run CLAUDE_CONFIG_DIR under `<stateDir>/claude/runs/` (a `codex` agent: a CODEX_HOME under
 * `<stateDir>/codex/runs/`; its sandboxed commands die with it; a CLI-runtime agent: a CLAUDE_CONFIG_DIR under
 * `<stateDir>/cli/runs/`: src/runtimes/registry.ts), and every checks process a
 * FLOTILLA_CHECKS_WORKTREE under `<tmpDir>/checks-` (both inherited by their children), so those are exactly
 * the processes to end — before their worktrees are removed. Linux only (reads /proc); elsewhere nothing
 * is found. Returns the pids signalled.
 */
export function reapOrphanProcesses(
  paths: Pick<FlotillaPaths, 'stateDir' | 'tmpDir'>,
  options: KillProcessesWithEnvOptions = {},
): number[] {
  const markers = [
    // Each runtime's marker variables, pointing under its own runs (its descriptor says which).
    ...RUNTIME_REGISTRY.flatMap(({ stateDir, orphanMarkerVariables }) =>
      stateDir === null
        ? []
        : orphanMarkerVariables.map((variable) => `${variable}=${join(paths.stateDir, stateDir, 'runs')}/`),
    ),
    `${CHECKS_WORKTREE_VARIABLE}=${join(paths.tmpDir, CHECKS_WORKTREE_PREFIX)}`,
  ];
  return killProcessesWithEnv((variable) => markers.some((marker) => variable.startsWith(marker)), options);
}
