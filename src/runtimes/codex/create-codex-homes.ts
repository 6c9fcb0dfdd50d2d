import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CodexHomes {
  /**
   * The CODEX_HOME for a run's config.toml: one per distinct config, made on first use and kept for the
   * runs after it (same role, same instructions and context files), so a run does not pay codex's first
   * start in an empty home (its state databases and bundled skills, ~0.3 s on a quiet machine).
   */
  homeFor(configToml: string): Promise<string>;
  /** Removes what a finished thread left in its home (its rollout file): nothing of one run outlives it. */
  removeThread(codexHome: string, threadId: string | null): Promise<void>;
}

/**
 * CODEX_HOME directories under `dir` (the runtime's `<stateDir>/runs/`, reaped at the next start after a
 * crash). A home is named after its config's hash, so runs never rewrite a config another run reads.
 */
export function createCodexHomes(dir: string): CodexHomes {
  const made = new Map<string, Promise<string>>();
  return {
    homeFor(configToml) {
      const name = `home-${createHash('sha256').update(configToml).digest('hex').slice(0, 16)}`;
      let home = made.get(name);
      if (home === undefined) {
        const path = join(dir, name);
        home = (async () => {
          await mkdir(path, { recursive: true, mode: 0o700 });
          await writeFile(join(path, 'config.toml'), configToml, { mode: 0o600 });
          return path;
        })();
        // A failure is not remembered: the next run tries again.
        home.catch(() => made.delete(name));
        made.set(name, home);
      }
      return home;
    },
    async removeThread(codexHome, threadId) {
      if (threadId === null) return;
      const sessions = join(codexHome, 'sessions');
      const files = await readdir(sessions, { recursive: true }).catch(() => [] as string[]);
      await Promise.all(
        files
          .filter((file) => file.endsWith(`${threadId}.jsonl`))
          .map((file) => rm(join(sessions, file), { force: true })),
      );
    },
  };
}
