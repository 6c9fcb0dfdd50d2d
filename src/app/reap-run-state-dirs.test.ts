import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { reapRunStateDirs } from './reap-run-state-dirs.ts';

let dir: ReturnType<typeof createTempDir>;

beforeEach(() => {
  dir = createTempDir();
});

afterEach(() => {
  dir.remove();
});

describe('reapRunStateDirs', () => {
  it("removes every run's leftover Claude, codex and CLI-runtime state, and nothing else under .flotilla", async () => {
    const stateDir = join(dir.path, '.flotilla');
    const claudeRun = join(stateDir, 'claude', 'runs', 'session-a');
    const codexRun = join(stateDir, 'codex', 'runs', 'session-b', 'home');
    mkdirSync(join(claudeRun, 'projects'), { recursive: true });
    writeFileSync(join(claudeRun, 'projects', 'session.jsonl'), '{}\n');
    mkdirSync(codexRun, { recursive: true });
    writeFileSync(join(codexRun, 'config.toml'), 'model = "x"\n');
    mkdirSync(join(stateDir, 'cli', 'runs', 'session-c', 'config'), { recursive: true });
    writeFileSync(join(stateDir, 'cli', 'runs', 'session-c', 'prompt-1.md'), 'prompt\n');
    mkdirSync(join(stateDir, 'logs'), { recursive: true });
    writeFileSync(join(stateDir, 'flotilla.db'), '');

    const removed = await reapRunStateDirs({ stateDir });

    expect(removed.sort()).toEqual([
      join(stateDir, 'claude', 'runs', 'session-a'),
      join(stateDir, 'cli', 'runs', 'session-c'),
      join(stateDir, 'codex', 'runs', 'session-b'),
    ]);
    expect(existsSync(join(stateDir, 'claude', 'runs', 'session-a'))).toBe(false);
    expect(existsSync(join(stateDir, 'codex', 'runs', 'session-b'))).toBe(false);
    expect(existsSync(join(stateDir, 'claude', 'runs'))).toBe(true);
    expect(existsSync(join(stateDir, 'logs'))).toBe(true);
    expect(existsSync(join(stateDir, 'flotilla.db'))).toBe(true);
  });

  it('is a no-op for a repository that never ran an agent', async () => {
    expect(await reapRunStateDirs({ stateDir: join(dir.path, '.flotilla') })).toEqual([]);
  });
});
