import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Processes started for local checks of this repository (they carry FLOTILLA_CHECKS_WORKTREE under it). */
export function checksProcessesOf(repoRoot: string): number[] {
  const marker = `FLOTILLA_CHECKS_WORKTREE=${join(repoRoot, '.flotilla/tmp/checks-')}`;
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
