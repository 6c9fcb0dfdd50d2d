import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctorChecks } from './doctor-command-checks.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function repoWithConfig(config: Record<string, unknown>): Promise<string> {
  const repo = await tempDir('flotilla-doctor-cli-');
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
  await writeFile(join(repo, 'flotilla.config.json'), JSON.stringify(config));
  return repo;
}

/** A PATH holding only an executable `aider` (and the system directories `sh` needs). */
async function pathWithAider(): Promise<string> {
  const bin = await tempDir('flotilla-doctor-bin-');
  await writeFile(join(bin, 'aider'), '#!/bin/sh\nexit 0\n');
  await chmod(join(bin, 'aider'), 0o755);
  return `${bin}:/usr/bin:/bin`;
}

describe('flotilla doctor: codex and CLI-runtime roles', () => {
  it('says for each CLI role whether its program is on PATH, and asks no agent file of codex/CLI roles', async () => {
    const cwd = await repoWithConfig({
      runtimes: {
        planner: { runtime: 'cli', preset: 'aider' },
        implementor: { runtime: 'cli', preset: 'gemini', program: ['flotilla-no-such-agent-cli'] },
        reviewer: 'codex',
      },
    });
    const checks = await runDoctorChecks({ cwd, env: { PATH: await pathWithAider() } });
    const byName = Object.fromEntries(checks.map((check) => [check.name, check]));

    expect(byName.agents).toEqual({
      name: 'agents',
      status: 'ok',
      message: 'no agent files needed (no role runs on claude or scripted)',
      fix: [],
    });
    expect(byName['cli-planner']?.status).toBe('ok');
    expect(byName['cli-planner']?.message).toMatch(
      /^planner: CLI preset aider: aider is on PATH \(.+\/aider\)$/,
    );
    expect(byName['cli-implementor']).toEqual({
      name: 'cli-implementor',
      status: 'fail',
      message: 'implementor: CLI preset gemini: flotilla-no-such-agent-cli is not on PATH',
      fix: [
        'install flotilla-no-such-agent-cli, or set runtimes.implementor.program in flotilla.config.json to its path',
      ],
    });
    expect(byName['cli-reviewer']).toBeUndefined();
    expect(byName.credentials?.message).toBe('no Claude credentials needed (no role runs on claude)');
  });

  it('checks only the claude/scripted roles’ agent files, and says "every role is scripted" only when it is', async () => {
    const cwd = await repoWithConfig({
      runtimes: { planner: 'scripted', implementor: 'codex', reviewer: { runtime: 'cli', preset: 'aider' } },
      scriptedScenario: 'flotilla.scenario.json',
    });
    await mkdir(join(cwd, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(cwd, '.claude', 'agents', 'planner.md'),
      '---\nname: planner\ndescription: Plans work items\n---\nYou plan.\n',
    );
    await writeFile(join(cwd, '.claude', 'CLAUDE.md'), '# Project\n');
    const checks = await runDoctorChecks({ cwd, env: { PATH: await pathWithAider() } });
    const byName = Object.fromEntries(checks.map((check) => [check.name, check]));
    expect(byName.agents?.fix).toEqual([]);
    expect(byName.agents).toMatchObject({ status: 'ok', message: 'agent files: .claude/agents/planner.md' });
    expect(byName.credentials?.message).toBe('no Claude credentials needed (no role runs on claude)');
    expect(checks.map((check) => check.message).join('\n')).not.toContain('every role is scripted');

    await rm(join(cwd, '.claude', 'agents', 'planner.md'));
    const missing = await runDoctorChecks({ cwd, env: { PATH: await pathWithAider() } });
    const agents = missing.find((check) => check.name === 'agents');
    expect(agents?.status).toBe('fail');
    expect(agents?.fix.join('\n')).toContain('planner.md');
    expect(agents?.fix.join('\n')).not.toContain('implementor.md');
    expect(agents?.fix.join('\n')).not.toContain('reviewer.md');
  });

  it('names the problem of an invalid custom preset', async () => {
    const cwd = await repoWithConfig({
      runtimes: { planner: { runtime: 'cli', preset: 'custom', custom: { start: [] } } },
    });
    const checks = await runDoctorChecks({ cwd, env: { PATH: '/usr/bin:/bin' } });
    const planner = checks.find((check) => check.name === 'cli-planner');
    expect(planner?.status).toBe('fail');
    expect(planner?.message).toBe('planner: CLI preset custom is invalid');
    expect(planner?.fix[0]).toContain('invalid custom CLI preset: start:');
  });

  it('fails a claude-CLI role without a key: its per-run config dir never sees a login', async () => {
    const bin = await tempDir('flotilla-doctor-bin-');
    await writeFile(join(bin, 'claude'), '#!/bin/sh\nexit 0\n');
    await chmod(join(bin, 'claude'), 0o755);
    const cwd = await repoWithConfig({ runtimes: { planner: { runtime: 'cli', preset: 'claude' } } });
    const path = `${bin}:/usr/bin:/bin`;
    const byName = async (env: Record<string, string>) =>
      Object.fromEntries((await runDoctorChecks({ cwd, env })).map((check) => [check.name, check]));

    expect((await byName({ PATH: path }))['cli-planner']).toEqual({
      name: 'cli-planner',
      status: 'fail',
      message: 'planner: CLI preset claude: claude is on PATH, but it cannot run',
      fix: [
        'no credentials for the claude CLI: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN in the environment of `flotilla run`',
      ],
    });
    expect((await byName({ PATH: path, ANTHROPIC_API_KEY: 'sk-ant-x' }))['cli-planner']?.status).toBe('ok');
  });
});
