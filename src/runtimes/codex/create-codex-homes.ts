import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '@openai/codex-sdk';

/** A run's codex state: its own directory, with the CODEX_HOME the agent may write inside it. */
export interface CodexRunHome {
  /** `<runs>/session-<session id>`: Flotilla's (the kept session's `stateDir`); not writable by the agent. */
  stateDir: string;
  /** `<stateDir>/home`: CODEX_HOME, writable inside the sandbox (codex keeps its databases and rollouts there). */
  codexHome: string;
}

export interface CodexHomes {
  /**
   * A fresh CODEX_HOME for one run, holding Flotilla's config.toml. Never shared: the agent can write its
   * CODEX_HOME (codex must), and what it plants there — config, `AGENTS.md` instructions, skills, rules —
   * would otherwise steer the next run of the same config (issue #25).
   */
  create(sessionID: string, configToml: string): Promise<CodexRunHome>;
  /**
   * A kept session's home, for the run that resumes its thread; config.toml is written again, so what the
   * asking run did to it does not carry over.
   */
  reopen(stateDir: string, configToml: string): Promise<CodexRunHome>;
  /** Removes a run's state with its home (its rollout included): nothing of one run outlives it. */
  remove(stateDir: string): Promise<void>;
  /**
   * Keeps the thread's cumulative usage when its run stops to ask a human. codex reports a thread's usage
   * summed over all its turns, so the run that resumes it subtracts this to report only its own turns. Kept
   * beside the home, where the agent cannot change it.
   */
  saveThreadUsage(stateDir: string, usage: Usage): Promise<void>;
  /** What saveThreadUsage kept; null when nothing was (or the file is unreadable). */
  readThreadUsage(stateDir: string): Promise<Usage | null>;
}

const usageFile = (stateDir: string) => join(stateDir, 'thread-usage.json');

/** The home inside a run's state directory; a session kept by an earlier version had its home as stateDir. */
function homeOf(stateDir: string): string {
  const home = join(stateDir, 'home');
  return existsSync(home) || !existsSync(join(stateDir, 'config.toml')) ? home : stateDir;
}

async function writeConfig(codexHome: string, configToml: string): Promise<void> {
  await mkdir(codexHome, { recursive: true, mode: 0o700 });
  // Replaced, not written through: a link the agent left in its place is not followed.
  await rm(join(codexHome, 'config.toml'), { force: true, recursive: true });
  await writeFile(join(codexHome, 'config.toml'), configToml, { mode: 0o600, flag: 'wx' });
}

/**
 * Per-run CODEX_HOME directories under `dir` (the runtime's `<stateDir>/runs/`, reaped at the next start
 * after a crash). The price: codex sets up its state databases and bundled skills in every run's empty home.
 */
export function createCodexHomes(dir: string): CodexHomes {
  return {
    async create(sessionID, configToml) {
      const stateDir = join(dir, `session-${sessionID}`);
      await mkdir(stateDir, { recursive: true, mode: 0o700 });
      const codexHome = join(stateDir, 'home');
      await writeConfig(codexHome, configToml);
      return { stateDir, codexHome };
    },
    async reopen(stateDir, configToml) {
      const codexHome = homeOf(stateDir);
      await writeConfig(codexHome, configToml);
      return { stateDir, codexHome };
    },
    async remove(stateDir) {
      await rm(stateDir, { recursive: true, force: true });
    },
    async saveThreadUsage(stateDir, usage) {
      await writeFile(usageFile(stateDir), JSON.stringify(usage), { mode: 0o600 });
    },
    async readThreadUsage(stateDir) {
      try {
        const saved: unknown = JSON.parse(await readFile(usageFile(stateDir), 'utf8'));
        return typeof saved === 'object' && saved !== null ? (saved as Usage) : null;
      } catch {
        return null;
      }
    },
  };
}
