/**
 * `flotilla … | head -1`: the reader closes stdout before the command is done. Every command finishes quietly
 * with exit 0, as git and gh do, instead of a 20-line EPIPE stack trace. The reader here closes its end before
 * the command has written anything (the child's Node is still starting), so every write the command makes
 * meets a closed pipe.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotilla, TEST_GIT_IDENTITY_ENV } from '../../src/cli/support/run-flotilla.ts';
import { agentProcessesOf } from '../support/agent-processes-of.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs) {
    for (const pid of agentProcessesOf(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  ...TEST_GIT_IDENTITY_ENV,
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_AUTH_TOKEN: '',
  CLAUDE_CODE_OAUTH_TOKEN: '',
  ANTHROPIC_BASE_URL: '',
};

/** Runs flotilla in `cwd` with its stdout closed by the reader at once; resolves to its exit code and stderr. */
function flotillaIntoClosedPipe(
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FLOTILLA_BIN, ...args], {
      cwd,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function freshRepository(): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'flotilla-closed-stdout-'));
  dirs.push(repo);
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
  execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', 'init'], { cwd: repo, env: ENV });
  return repo;
}

describe('a closed stdout', () => {
  it('ends init, doctor, work list, runs, budget and --help quietly with exit 0', async () => {
    const repo = await freshRepository();
    const results: Record<string, { code: number | null; stderr: string }> = {};
    for (const args of [
      ['init', '--scripted'],
      ['doctor'],
      ['work', 'list'],
      ['runs'],
      ['budget'],
      ['stats'],
      ['--help'],
    ]) {
      results[args.join(' ')] = await flotillaIntoClosedPipe(repo, args);
    }
    for (const result of Object.values(results)) expect(result).toEqual({ code: 0, stderr: '' });
    // The work was done even though nobody read about it.
    expect(existsSync(join(repo, 'flotilla.config.json'))).toBe(true);
  }, 120_000);

  it('stops `run --until-idle` as cleanly as Ctrl-C, without a word, exit 0', async () => {
    const repo = await freshRepository();
    expect((await flotillaIntoClosedPipe(repo, ['init', '--scripted'])).code).toBe(0);
    await mkdir(join(repo, 'docs/specs'), { recursive: true });
    await writeFile(
      join(repo, 'docs/specs/my-feature.md'),
      '---\nstatus: approved\n---\n# My feature\n\nA greeting.\n',
    );
    execFileSync('git', ['add', '-A'], { cwd: repo });
    execFileSync('git', ['commit', '--quiet', '-m', 'Spec'], { cwd: repo, env: ENV });

    expect(await flotillaIntoClosedPipe(repo, ['run', '--until-idle'])).toEqual({ code: 0, stderr: '' });
    // Stopped cleanly: the lock is released and no agent is left behind.
    expect(existsSync(join(repo, '.flotilla/run.lock'))).toBe(false);
    expect(agentProcessesOf(repo)).toEqual([]);
    // Stopped, not run to the end: the planner, started before anything was written, was cancelled.
    const runs = JSON.parse((await runFlotilla(repo, ['runs', '--json'])).stdout) as { status: string }[];
    expect(runs.map((run) => run.status)).toEqual(['cancelled']);
  }, 120_000);
});
