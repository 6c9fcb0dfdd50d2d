/**
 * What `flotilla run` refuses before starting anything (exit 2): roles whose runtime is `claude` with no
 * model credential (each agent would fail with the Claude CLI's "Not logged in" and be retried), and an
 * invalid scripted scenario.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotilla, TEST_GIT_IDENTITY_ENV } from '../../src/cli/support/run-flotilla.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const NO_CREDENTIALS = {
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_AUTH_TOKEN: '',
  CLAUDE_CODE_OAUTH_TOKEN: '',
  CLAUDE_CODE_USE_BEDROCK: '',
  CLAUDE_CODE_USE_VERTEX: '',
};

async function initialisedRepo(args: string[]): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'flotilla-preflight-'));
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

describe('flotilla run pre-flight', () => {
  it('exits 2 without a model credential, naming the variable and the dry run, before any agent starts', async () => {
    const repo = await initialisedRepo([]);
    const result = await runFlotilla(repo, ['run', '--until-idle'], { env: NO_CREDENTIALS });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "flotilla run: no model credentials for planner, implementor, reviewer (runtime 'claude')",
    );
    expect(result.stderr).toContain('set ANTHROPIC_API_KEY');
    expect(result.stderr).toContain('flotilla init --scripted');
    expect(result.stdout).toBe('');
    // Nothing started: no database, no run lock, no planner attempt recorded.
    expect(existsSync(join(repo, '.flotilla', 'flotilla.db'))).toBe(false);
  });

  it('exits 2 on an invalid scripted scenario, naming the file and the field', async () => {
    const repo = await initialisedRepo(['--scripted']);
    await writeFile(join(repo, 'flotilla.scenario.json'), '{"routes": [{"name": "p", "steps": [{}]}]}');
    const result = await runFlotilla(repo, ['run', '--until-idle'], { env: NO_CREDENTIALS });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'flotilla.scenario.json (scriptedScenario in flotilla.config.json): routes[0].steps[0]: a step needs a reply',
    );
    expect(existsSync(join(repo, '.flotilla', 'flotilla.db'))).toBe(false);
  });
});
