import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCliAvailability } from './check-cli-availability.ts';
import { CLI_PRESETS } from './cli-presets.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-cli-availability-'));
  for (const name of ['claude', 'aider']) {
    await writeFile(join(dir, name), '#!/bin/sh\n');
    await chmod(join(dir, name), 0o755);
  }
  await writeFile(join(dir, 'gemini'), 'not executable\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const check = (presetName: keyof typeof CLI_PRESETS, env: Record<string, string>, program?: string[]) =>
  checkCliAvailability({
    presetName,
    preset: CLI_PRESETS[presetName],
    env: { PATH: `/nonexistent:${dir}`, ...env },
    cwd: dir,
    ...(program !== undefined && { program }),
  });

describe('checkCliAvailability', () => {
  it('is available when the program is an executable on PATH and a required key is set', () => {
    expect(check('claude', { ANTHROPIC_API_KEY: 'sk-ant-x' })).toEqual({ available: true });
    // aider may read keys of its own: no key is not a refusal.
    expect(check('aider', {})).toEqual({ available: true });
  });

  it('names a program that is missing or not executable, and what to do', () => {
    const missing = check('opencode', {});
    expect(missing).toEqual({
      available: false,
      problems: [expect.stringContaining('opencode (CLI preset opencode) is not an executable on PATH')],
    });
    expect(check('gemini', { GEMINI_API_KEY: 'k' }).available).toBe(false);
  });

  it('refuses the claude CLI without a key (its per-run config dir never sees a login)', () => {
    expect(check('claude', { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' })).toEqual({
      available: false,
      problems: [
        'no credentials for the claude CLI: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN in the environment of `flotilla run`',
      ],
    });
  });

  it('checks a configured program instead of the preset one, relative paths from the repository root', () => {
    expect(check('opencode', {}, ['./aider', '--flag']).available).toBe(true);
    expect(check('aider', {}, [join(dir, 'nope')]).available).toBe(false);
  });
});
