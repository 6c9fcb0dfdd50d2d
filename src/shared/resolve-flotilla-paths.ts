import { join } from 'node:path';

export interface FlotillaPaths {
  /** `.flotilla/`: everything Flotilla writes that is not a worktree (git-ignored by `flotilla init`). */
  stateDir: string;
  dbPath: string;
  logsDir: string;
  /** Agent session transcripts. */
  sessionsDir: string;
  /**
   * `.flotilla/tmp/`: the checks worktrees (`checks-*`) and patch-application scratch dirs (`apply-*`) of the
   * local provider. Kept in the repository so a start after a crash can prove they are Flotilla's and reap them.
   */
  tmpDir: string;
  /** `.worktrees/`: one git worktree per implementor run (git-ignored by `flotilla init`). */
  worktreesDir: string;
}

/** Where Flotilla keeps its files in a repository. Fixed locations, not configurable. */
export function resolveFlotillaPaths(repoRoot: string): FlotillaPaths {
  const stateDir = join(repoRoot, '.flotilla');
  const logsDir = join(stateDir, 'logs');
  return {
    stateDir,
    dbPath: join(stateDir, 'flotilla.db'),
    logsDir,
    sessionsDir: join(logsDir, 'sessions'),
    tmpDir: join(stateDir, 'tmp'),
    worktreesDir: join(repoRoot, '.worktrees'),
  };
}
