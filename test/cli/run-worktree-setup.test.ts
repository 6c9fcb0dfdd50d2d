/**
 * Issue #30 end to end through `flotilla run` (scripted model server, real git, sandbox on): the demo backlog
 * with `worktree.copy: [".env"]` and a validation command that starts a server on $FLOTILLA_PORT and reads it
 * back with `.env` present; no revision branch ever carries `.env`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const SERVE_AND_CHECK = `import http from 'node:http';
const port = Number(process.env.FLOTILLA_PORT);
const server = http.createServer((_, res) => res.end('ok ' + port)).listen(port, '127.0.0.1', () => {
  http.get({ host: '127.0.0.1', port }, (res) => {
    let body = ''; res.on('data', (c) => { body += c; });
    res.on('end', () => { console.log('served on', port, body); server.close(); process.exit(body === 'ok ' + port ? 0 : 1); });
  }).on('error', (e) => { console.log(e.message); process.exit(1); });
});
`;

describe('flotilla run with worktree.copy and worktree.ports', () => {
  it('validation serves on $FLOTILLA_PORT in the sandbox, .env is in every worktree and in no revision', async () => {
    const repo = await fixtures.demoRepository();
    const server = await fixtures.serve();
    const git = (args: string[]) =>
      execFileSync('git', args, {
        cwd: repo.root,
        env: { ...process.env, ...repo.gitEnv },
        encoding: 'utf8',
      });
    await writeFile(join(repo.root, 'serve-check.mjs'), SERVE_AND_CHECK);
    git(['add', 'serve-check.mjs']);
    git(['commit', '--quiet', '-m', 'serve-check']);
    await writeFile(join(repo.root, '.env'), 'LOCAL_SETTING=from-the-main-checkout\n'); // untracked, not ignored
    const configPath = join(repo.root, 'flotilla.config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8'));
    await writeFile(
      configPath,
      JSON.stringify({
        ...config,
        worktree: { ...config.worktree, copy: ['.env'], ports: 3 },
        validation: {
          commands: [
            'node serve-check.mjs && grep -q from-the-main-checkout .env && echo "ports $FLOTILLA_PORT $FLOTILLA_PORT_2"',
          ],
        },
      }),
    );
    const child = spawn(process.execPath, [FLOTILLA_BIN, 'run', '--until-idle'], {
      cwd: repo.root,
      env: { ...process.env, ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('work item #2 review → approved');
    const sessionsDir = join(repo.root, '.flotilla/logs/sessions');
    const implementorLogs = (await readdir(sessionsDir)).filter((name) => name.includes('-implementor-'));
    expect(implementorLogs.length).toBeGreaterThanOrEqual(2);
    for (const name of implementorLogs) {
      const transcript = await readFile(join(sessionsDir, name), 'utf8');
      expect(transcript, name).toMatch(/FLOTILLA validation passed: node serve-check\.mjs/);
    }
    // No branch (revisions, merges) ever added .env; the ports were released with the worktrees.
    expect(git(['log', '--all', '--name-only', '--format=']).split('\n')).not.toContain('.env');
    const left = await readdir(join(repo.root, '.flotilla', 'ports')).catch(() => []);
    expect(left).toEqual([]);
  }, 120_000);
});
