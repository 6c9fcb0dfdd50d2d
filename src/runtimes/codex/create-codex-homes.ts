import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '@openai/codex-sdk';

export interface CodexHomes {
  /**
   * The CODEX_HOME for a run's config.toml: one per distinct config, made on first use and kept for the
   * runs after it (same role, same instructions and context files), so a run does not pay codex's first
   * start in an empty home (its state databases and bundled skills, ~0.3 s on a quiet machine).
   */
  homeFor(configToml: string): Promise<string>;
  /** Removes what a finished thread left in its home (its rollout file): nothing of one run outlives it. */
  removeThread(codexHome: string, threadId: string | null): Promise<void>;
  /**
   * Keeps the thread's cumulative usage when its run stops to ask a human. codex reports a thread's usage
   * summed over all its turns, so the run that resumes it subtracts this to report only its own turns.
   */
  saveThreadUsage(codexHome: string, threadId: string, usage: Usage): Promise<void>;
  /** What saveThreadUsage kept for the thread; null when nothing was (or the file is unreadable). */
  readThreadUsage(codexHome: string, threadId: string): Promise<Usage | null>;
}

/** Flotilla's own per-thread notes in a CODEX_HOME (codex ignores the directory). */
const USAGE_DIR = 'flotilla-thread-usage';
const usageFile = (codexHome: string, threadId: string) =>
  join(codexHome, USAGE_DIR, `${threadId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);

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
      await rm(usageFile(codexHome, threadId), { force: true });
      const sessions = join(codexHome, 'sessions');
      const files = await readdir(sessions, { recursive: true }).catch(() => [] as string[]);
      await Promise.all(
        files
          .filter((file) => file.endsWith(`${threadId}.jsonl`))
          .map((file) => rm(join(sessions, file), { force: true })),
      );
    },
    async saveThreadUsage(codexHome, threadId, usage) {
      await mkdir(join(codexHome, USAGE_DIR), { recursive: true, mode: 0o700 });
      await writeFile(usageFile(codexHome, threadId), JSON.stringify(usage), { mode: 0o600 });
    },
    async readThreadUsage(codexHome, threadId) {
      try {
        const saved: unknown = JSON.parse(await readFile(usageFile(codexHome, threadId), 'utf8'));
        return typeof saved === 'object' && saved !== null ? (saved as Usage) : null;
      } catch {
        return null;
      }
    },
  };
}
