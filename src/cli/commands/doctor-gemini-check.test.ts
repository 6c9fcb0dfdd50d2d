import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctorChecks } from './doctor-command-checks.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function repoWithRuntimes(runtimes: Record<string, string>): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'flotilla-doctor-gemini-'));
  dirs.push(repo);
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
  await writeFile(join(repo, 'flotilla.config.json'), JSON.stringify({ runtimes }));
  return repo;
}

describe('flotilla doctor: runtime gemini (its line comes from the registry)', () => {
  it('fails naming the key to set, passes with one, for the roles on gemini only', async () => {
    const cwd = await repoWithRuntimes({ planner: 'claude', implementor: 'gemini', reviewer: 'gemini' });
    const noKey = await runDoctorChecks({ cwd, env: {} });
    expect(noKey.find((check) => check.name === 'gemini')).toEqual({
      name: 'gemini',
      status: 'fail',
      message: "runtime 'gemini' (implementor, reviewer) cannot run",
      fix: ['no Gemini API key for gemini: set GEMINI_API_KEY or GOOGLE_API_KEY'],
    });

    const withKey = await runDoctorChecks({ cwd, env: { GEMINI_API_KEY: 'test-key' } });
    expect(withKey.find((check) => check.name === 'gemini')).toEqual({
      name: 'gemini',
      status: 'ok',
      message: 'implementor, reviewer: gemini-cli found, API key set',
      fix: [],
    });
    expect(withKey.map((check) => check.name)).not.toContain('codex');
  });
});
