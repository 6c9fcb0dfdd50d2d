import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSetupCommand } from './resolve-setup-command.ts';

describe('resolveSetupCommand', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-setup-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['package-lock.json', 'npm ci'],
    ['yarn.lock', 'yarn install --frozen-lockfile'],
    ['pnpm-lock.yaml', 'pnpm install --frozen-lockfile'],
  ])('detects %s when no command is configured', async (lockfile, command) => {
    await writeFile(join(dir, lockfile), '');
    expect(await resolveSetupCommand(undefined, dir)).toBe(command);
    expect(await resolveSetupCommand(null, dir)).toBe(command);
    expect(await resolveSetupCommand('  ', dir)).toBe(command);
  });

  it('runs nothing when there is no lockfile', async () => {
    expect(await resolveSetupCommand(undefined, dir)).toBeNull();
  });

  it('prefers package-lock.json when several lockfiles exist', async () => {
    await writeFile(join(dir, 'yarn.lock'), '');
    await writeFile(join(dir, 'package-lock.json'), '');
    expect(await resolveSetupCommand(undefined, dir)).toBe('npm ci');
  });

  it('uses the configured command over any lockfile', async () => {
    await writeFile(join(dir, 'yarn.lock'), '');
    expect(await resolveSetupCommand(' yarn install ', dir)).toBe('yarn install');
  });

  it('disables setup with none, whatever lockfile exists', async () => {
    await writeFile(join(dir, 'package-lock.json'), '');
    expect(await resolveSetupCommand('none', dir)).toBeNull();
  });
});
