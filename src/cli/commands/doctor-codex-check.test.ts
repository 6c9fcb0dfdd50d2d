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
  const repo = await mkdtemp(join(tmpdir(), 'flotilla-doctor-codex-'));
  dirs.push(repo);
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
  await writeFile(join(repo, 'flotilla.config.json'), JSON.stringify({ runtimes }));
  return repo;
}

describe('flotilla doctor: runtime codex', () => {
  it('fails naming the key to set, passes with one; no Claude key is asked for codex roles', async () => {
    const cwd = await repoWithRuntimes({ planner: 'codex', implementor: 'codex', reviewer: 'codex' });
    const noKey = await runDoctorChecks({ cwd, env: {} });
    const byName = Object.fromEntries(noKey.map((check) => [check.name, check]));
    expect(byName.codex).toEqual({
      name: 'codex',
      status: 'fail',
      message: "runtime 'codex' (planner, implementor, reviewer) cannot run",
      fix: ['no OpenAI API key for codex: set CODEX_API_KEY or OPENAI_API_KEY'],
    });
    expect(byName.credentials?.status).toBe('ok');
    expect(byName.credentials?.message).toBe('no Claude credentials needed (no role runs on claude)');

    const withKey = await runDoctorChecks({ cwd, env: { OPENAI_API_KEY: 'sk-test' } });
    expect(withKey.find((check) => check.name === 'codex')).toMatchObject({
      status: 'ok',
      message: 'planner, implementor, reviewer: codex binary found, API key set',
    });
  });

  it('has no codex line when no role runs on codex', async () => {
    const cwd = await repoWithRuntimes({ planner: 'claude' });
    const checks = await runDoctorChecks({ cwd, env: {} });
    expect(checks.map((check) => check.name)).not.toContain('codex');
  });
});
