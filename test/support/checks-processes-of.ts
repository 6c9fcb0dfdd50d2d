import { join } from 'node:path';
import { processesWithEnvironment } from './processes-with-environment.ts';

/** Processes started for local checks of this repository (they carry FLOTILLA_CHECKS_WORKTREE under it). */
export function checksProcessesOf(repoRoot: string): number[] {
  return processesWithEnvironment(`FLOTILLA_CHECKS_WORKTREE=${join(repoRoot, '.flotilla/tmp/checks-')}`);
}
