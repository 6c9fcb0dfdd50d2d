import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MACOS_SANDBOX_STATUS } from '../../sandbox/sandbox-types.ts';
import { runFlotilla, TEST_GIT_IDENTITY_ENV } from '../support/run-flotilla.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** No model credential in the environment, and a HOME without `claude login` files. */
async function credentialFreeEnv(): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(join(tmpdir(), 'flotilla-doctor-home-'));
  dirs.push(home);
  return {
    HOME: home,
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_AUTH_TOKEN: '',
    CLAUDE_CODE_OAUTH_TOKEN: '',
    CLAUDE_CODE_USE_BEDROCK: '',
    CLAUDE_CODE_USE_VERTEX: '',
    CLAUDE_CONFIG_DIR: '',
  };
}

/** A repository after `flotilla init [args]` with an approved spec committed. */
async function initialisedRepo(args: string[] = []): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'flotilla-doctor-'));
  dirs.push(repo);
  const git = (gitArgs: string[]) =>
    execFileSync('git', gitArgs, { cwd: repo, env: { ...process.env, ...TEST_GIT_IDENTITY_ENV } });
  git(['init', '--quiet', '--initial-branch', 'main']);
  expect((await runFlotilla(repo, ['init', ...args])).code).toBe(0);
  await writeFile(join(repo, 'docs', 'specs', 'feature.md'), '---\nstatus: approved\n---\n# Feature\n');
  git(['add', '-A']);
  git(['commit', '--quiet', '-m', 'Flotilla and a spec']);
  return repo;
}

interface DoctorJson {
  ok: boolean;
  checks: { name: string; status: 'ok' | 'warn' | 'fail'; message: string; fix: string[] }[];
}

// Each test runs the real launcher several times (init, doctor, doctor): seconds alone, far more on a loaded
// machine.
describe('flotilla doctor', { timeout: 90_000 }, () => {
  it('names each spec with broken frontmatter in the words `flotilla run` uses, as a warning', async () => {
    const repo = await initialisedRepo(['--scripted']);
    await writeFile(join(repo, 'docs', 'specs', 'broken.md'), '---\nstatus: [approved\n---\n# Broken\n');
    execFileSync('git', ['add', '-A'], { cwd: repo });
    execFileSync('git', ['commit', '--quiet', '-m', 'A broken spec'], {
      cwd: repo,
      env: { ...process.env, ...TEST_GIT_IDENTITY_ENV },
    });
    const doctor = await runFlotilla(repo, ['doctor', '--json'], { env: await credentialFreeEnv() });
    const specs = (JSON.parse(doctor.stdout) as DoctorJson).checks.find((check) => check.name === 'specs');
    expect(specs?.status).toBe('warn');
    expect(specs?.message).toBe(
      'docs/specs/ on main: 3 spec(s), 1 approved, 1 with a problem (read as draft until fixed)',
    );
    expect(specs?.fix[0]).toMatch(/^docs\/specs\/broken\.md: broken frontmatter, treated as draft: /);
  });

  it('fails (exit 1) on missing credentials for claude roles, naming what to set; passes once one is set', async () => {
    const repo = await initialisedRepo();
    const env = await credentialFreeEnv();
    const missing = await runFlotilla(repo, ['doctor'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('✓ git repository at');
    expect(missing.stdout).toContain('✓ docs/specs/ on main: 2 spec(s), 1 approved');
    expect(missing.stdout).toContain(
      "✗ no model credentials for planner, implementor, reviewer (runtime 'claude')",
    );
    expect(missing.stdout).toContain('set ANTHROPIC_API_KEY');
    expect(missing.stdout).toContain('flotilla init --scripted');

    const present = await runFlotilla(repo, ['doctor', '--json'], {
      env: { ...env, ANTHROPIC_API_KEY: 'sk-doctor-secret' },
    });
    expect(present.code).toBe(0);
    expect(present.stdout).not.toContain('sk-doctor-secret');
    const report = JSON.parse(present.stdout) as DoctorJson;
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ['git', 'ok'],
      ['config', 'ok'],
      ['agents', 'ok'],
      ['prompts', 'ok'],
      ['specs', 'ok'],
      ['sandbox', 'ok'],
      ['credentials', 'ok'],
      ['checks', 'warn'],
    ]);
    expect(report.checks.find((check) => check.name === 'credentials')?.message).toContain(
      'ANTHROPIC_API_KEY is set',
    );
  });

  it('lists each account and whether its variables are set, never their values', async () => {
    const repo = await initialisedRepo();
    const configPath = join(repo, 'flotilla.config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
    config.accounts = [
      { name: 'work', runtime: 'claude', env: { ANTHROPIC_API_KEY: '$WORK_ANTHROPIC_KEY' } },
      { name: 'personal', runtime: 'claude', env: { CLAUDE_CODE_OAUTH_TOKEN: '$PERSONAL_OAUTH' } },
    ];
    await writeFile(configPath, JSON.stringify(config));
    const env = { ...(await credentialFreeEnv()), WORK_ANTHROPIC_KEY: 'sk-work-secret' };
    const result = await runFlotilla(repo, ['doctor', '--json'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('sk-work-secret');
    const byName = Object.fromEntries(
      (JSON.parse(result.stdout) as DoctorJson).checks.map((check) => [check.name, check]),
    );
    // Accounts carry the credentials: the environment's own key is not needed.
    expect(byName.credentials?.status).toBe('ok');
    expect(byName['account-work']).toMatchObject({
      status: 'ok',
      message: 'account work (claude): ANTHROPIC_API_KEY ← $WORK_ANTHROPIC_KEY: set',
    });
    expect(byName['account-personal']).toMatchObject({
      status: 'fail',
      message: 'account personal (claude): $PERSONAL_OAUTH not set',
    });
  });

  it('needs no key for a scripted dry run, and names the field of an invalid scenario and a missing agent file', async () => {
    const repo = await initialisedRepo(['--scripted']);
    const env = await credentialFreeEnv();
    const ready = await runFlotilla(repo, ['doctor'], { env });
    expect(ready.code).toBe(0);
    expect(ready.stdout).toContain('✓ no credentials needed (every role is scripted)');
    expect(ready.stdout).toContain('✓ scripted scenario flotilla.scenario.json: 3 route(s)');

    await writeFile(join(repo, 'flotilla.scenario.json'), '{"routes": [{"steps": [{"text": "hi"}]}]}');
    await rm(join(repo, '.claude', 'agents', 'reviewer.md'));
    const broken = await runFlotilla(repo, ['doctor', '--json'], { env });
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.stdout) as DoctorJson;
    const byName = Object.fromEntries(report.checks.map((check) => [check.name, check]));
    expect(byName.scenario?.status).toBe('fail');
    expect(byName.scenario?.fix[0]).toBe(
      'flotilla.scenario.json (scriptedScenario in flotilla.config.json): routes[0].name: required: a non-empty, unique route name',
    );
    expect(byName.agents?.status).toBe('fail');
    expect(byName.agents?.fix.join('\n')).toContain('reviewer.md');
  });

  it('fails outside a git repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-doctor-bare-'));
    dirs.push(dir);
    const result = await runFlotilla(dir, ['doctor'], { env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗');
    expect(result.stdout).toContain('is not inside a git repository');
  });
});

describe('flotilla doctor on macOS (an injected platform)', { timeout: 90_000 }, () => {
  const sandboxCheck = async (repo: string, platform: NodeJS.Platform) => {
    const { runDoctorChecks } = await import('./doctor-command-checks.ts');
    const checks = await runDoctorChecks({ cwd: repo, env: { ANTHROPIC_API_KEY: 'sk-x' }, platform });
    return checks.find((check) => check.name === 'sandbox');
  };

  it('fails the sandbox check with what applies on macOS, and warns when it is off', async () => {
    const repo = await initialisedRepo();
    expect(await sandboxCheck(repo, 'darwin')).toEqual({
      name: 'sandbox',
      status: 'fail',
      message: 'the OS sandbox cannot start here (macOS)',
      fix: [MACOS_SANDBOX_STATUS],
    });
    expect(MACOS_SANDBOX_STATUS).toContain('`flotilla run` refuses there unless "sandbox": "off"');
    expect(MACOS_SANDBOX_STATUS).toContain('Not sandbox-exec (Seatbelt) yet');
    expect((await sandboxCheck(repo, 'linux'))?.status).toBe('ok');

    const configPath = join(repo, 'flotilla.config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
    await writeFile(configPath, JSON.stringify({ ...config, sandbox: 'off' }));
    const off = await sandboxCheck(repo, 'darwin');
    expect(off?.status).toBe('warn');
    expect(off?.message).toContain('the OS sandbox is OFF');
    expect(off?.fix).toEqual([
      MACOS_SANDBOX_STATUS,
      'for a sandbox, run Flotilla on Linux (a VM or container with bubblewrap)',
    ]);
  });
});
