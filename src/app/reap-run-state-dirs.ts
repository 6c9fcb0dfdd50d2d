import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FlotillaPaths } from '../config/index.ts';
import { RUNTIME_REGISTRY } from '../runtimes/registry.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';

/**
 * Where the runtimes keep one directory per run (the Claude CLI's config dir, codex's CODEX_HOME, the CLI
 * runtime's prompt files and agent config/temp dirs): `<their state dir>/runs` (src/runtimes/registry.ts).
 */
export const RUN_STATE_PARENTS: readonly (readonly [string, 'runs'])[] = RUNTIME_REGISTRY.flatMap(
  (runtime) => (runtime.stateDir === null ? [] : [[runtime.stateDir, 'runs'] as const]),
);

/**
 * Crash recovery for per-run runtime state: a run removes its directory when it ends, but a killed Flotilla
 * leaves them behind (SDK sessions, codex homes with their logs), and codex homes are kept on purpose for
 * the runtime's later runs. `keep` names the state directories of sessions waiting for a human's answers,
 * never reaped. Called at start, under the run lock and after the runs' processes were ended, so none of
 * them belongs to a live run. Returns the removed paths.
 */
export async function reapRunStateDirs(
  paths: Pick<FlotillaPaths, 'stateDir'>,
  /** State directories of sessions waiting for answers: they are resumed later, never reaped. */
  keep: readonly string[] = [],
): Promise<string[]> {
  const kept = new Set(keep.map((path) => resolve(path)));
  const removed: string[] = [];
  for (const parent of RUN_STATE_PARENTS) {
    const dir = join(paths.stateDir, ...parent);
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT')) continue;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      if (kept.has(resolve(path))) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    }
  }
  return removed;
}
