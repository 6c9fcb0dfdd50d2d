import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The CLI's own state file inside CLAUDE_CONFIG_DIR. */
const STATE_FILE = '.claude.json';

/** Keys that say "this config dir has been started before" and carry nothing of a run or an account. */
const FIRST_START_KEYS = ['firstStartTime', 'migrationVersion'] as const;

export interface ClaudeConfigSeed {
  /**
   * Gives a new run's config dir the seed, when one is known and the dir has no state file yet. Never
   * throws: the seed only saves time, and a dir that cannot be written is the CLI's to report.
   */
  plant(configDir: string): Promise<void>;
  /** Takes the seed from a finished run's config dir, unless one is already known. Never throws. */
  learn(configDir: string): Promise<void>;
}

/**
 * The first-start state of the CLI's config dir, carried from one run to the next (issue 13's overhead).
 *
 * Every run has its own CLAUDE_CONFIG_DIR, so runs never share a conversation, a project entry or a lock on
 * the CLI's state file. But a CLI that finds no state file treats the start as its first ever and runs its
 * config migrations, each saving the file (and a backup) again, on every session. A run's
 * config dir therefore starts with the first-start markers an earlier run of this runtime ended with — the
 * first-start time, the migration version and the boolean flags the migrations set — and nothing else:
 * no ids, projects, history or account data.
 */
export function createClaudeConfigSeed(): ClaudeConfigSeed {
  let seed: string | null = null;
  return {
    async plant(configDir) {
      if (seed === null) return;
      try {
        await mkdir(configDir, { recursive: true });
        // `wx`: a resumed run's config dir keeps the state its session was started with.
        await writeFile(join(configDir, STATE_FILE), seed, { flag: 'wx', mode: 0o600 });
      } catch {
        // Already there (a resumed run) or not writable: the CLI starts as it would have.
      }
    },
    async learn(configDir) {
      if (seed !== null) return;
      try {
        seed = buildClaudeConfigSeed(JSON.parse(await readFile(join(configDir, STATE_FILE), 'utf8')));
      } catch {
        // No state file (the session never started) or one being rewritten: a later run teaches it.
      }
    },
  };
}

/** The seed's text from a state file's content, or null when it has no first-start markers. */
export function buildClaudeConfigSeed(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return null;
  const entries = Object.entries(state as Record<string, unknown>).filter(
    ([key, value]) =>
      typeof value === 'boolean' ||
      (FIRST_START_KEYS.includes(key as (typeof FIRST_START_KEYS)[number]) &&
        (typeof value === 'string' || typeof value === 'number')),
  );
  if (!entries.some(([key]) => key === 'migrationVersion')) return null;
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}
