import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildClaudeConfigSeed, createClaudeConfigSeed } from './create-claude-config-seed.ts';

/** A state file as the CLI leaves it after a session (shape taken from a real run, values made up). */
const FINISHED_STATE = {
  firstStartTime: '2026-11-23T20:05:09.869Z',
  firstStartVersion: '2.1.330',
  machineID: 'machine-hash',
  userID: 'user-hash',
  migrationVersion: 15,
  opusProMigrationComplete: true,
  hasResetAutoModeOptInForDefaultOffer: true,
  seenNotifications: {},
  oauthAccount: { emailAddress: 'someone@example.com' },
  projects: { '/repo/.worktrees/flotilla/agent/1': { allowedTools: [] } },
  pluginUsage: { 'x@builtin': { usageCount: 0 } },
};

describe('buildClaudeConfigSeed', () => {
  it('keeps the first-start markers and boolean flags, nothing of a run or an account', () => {
    const seed = buildClaudeConfigSeed(FINISHED_STATE);
    expect(JSON.parse(seed ?? 'null')).toEqual({
      firstStartTime: '2026-11-23T20:05:09.869Z',
      migrationVersion: 15,
      opusProMigrationComplete: true,
      hasResetAutoModeOptInForDefaultOffer: true,
    });
  });

  it('is null for a state without a migration version, or not an object', () => {
    expect(buildClaudeConfigSeed({ firstStartTime: 'x', someFlag: true })).toBeNull();
    expect(buildClaudeConfigSeed([1, 2])).toBeNull();
    expect(buildClaudeConfigSeed('text')).toBeNull();
    expect(buildClaudeConfigSeed(null)).toBeNull();
  });
});

describe('createClaudeConfigSeed', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-config-seed-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('plants nothing until a finished run taught it, then the seed in each new config dir', async () => {
    const seed = createClaudeConfigSeed();
    await seed.plant(join(dir, 'run-1'));
    await expect(readFile(join(dir, 'run-1', '.claude.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    await mkdir(join(dir, 'run-1'), { recursive: true });
    await writeFile(join(dir, 'run-1', '.claude.json'), JSON.stringify(FINISHED_STATE));
    await seed.learn(join(dir, 'run-1'));
    await seed.plant(join(dir, 'run-2', 'config'));
    const planted = JSON.parse(await readFile(join(dir, 'run-2', 'config', '.claude.json'), 'utf8'));
    expect(planted).toEqual(JSON.parse(buildClaudeConfigSeed(FINISHED_STATE) ?? 'null'));
  });

  it("never overwrites a config dir's own state (a resumed run keeps its session's)", async () => {
    const seed = createClaudeConfigSeed();
    await mkdir(join(dir, 'taught'), { recursive: true });
    await writeFile(join(dir, 'taught', '.claude.json'), JSON.stringify(FINISHED_STATE));
    await seed.learn(join(dir, 'taught'));
    await mkdir(join(dir, 'resumed'), { recursive: true });
    await writeFile(join(dir, 'resumed', '.claude.json'), '{"own":true}');
    await seed.plant(join(dir, 'resumed'));
    expect(await readFile(join(dir, 'resumed', '.claude.json'), 'utf8')).toBe('{"own":true}');
  });

  it('a config dir it cannot make is left to the CLI: planting does not throw', async () => {
    const seed = createClaudeConfigSeed();
    await mkdir(join(dir, 'taught'), { recursive: true });
    await writeFile(join(dir, 'taught', '.claude.json'), JSON.stringify(FINISHED_STATE));
    await seed.learn(join(dir, 'taught'));
    await writeFile(join(dir, 'a-file'), 'not a directory');
    await expect(seed.plant(join(dir, 'a-file', 'config'))).resolves.toBeUndefined();
  });

  it('learns from the first usable state file only; a missing or broken one teaches nothing', async () => {
    const seed = createClaudeConfigSeed();
    await seed.learn(join(dir, 'missing'));
    await mkdir(join(dir, 'broken'), { recursive: true });
    await writeFile(join(dir, 'broken', '.claude.json'), '{"migrationVersion": 1');
    await seed.learn(join(dir, 'broken'));
    await seed.plant(join(dir, 'after-broken'));
    await expect(readFile(join(dir, 'after-broken', '.claude.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    await mkdir(join(dir, 'good'), { recursive: true });
    await writeFile(join(dir, 'good', '.claude.json'), JSON.stringify(FINISHED_STATE));
    await seed.learn(join(dir, 'good'));
    await mkdir(join(dir, 'later'), { recursive: true });
    await writeFile(join(dir, 'later', '.claude.json'), JSON.stringify({ migrationVersion: 99 }));
    await seed.learn(join(dir, 'later'));
    await seed.plant(join(dir, 'next'));
    expect(JSON.parse(await readFile(join(dir, 'next', '.claude.json'), 'utf8')).migrationVersion).toBe(15);
  });
});
