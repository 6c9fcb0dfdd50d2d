/**
 * Issue #31 point 7: a GitHub API that cannot be reached (offline, a wrong github.apiUrl) is one clear line
 * from every command that talks to it, at once — not a raw `getaddrinfo ENOTFOUND` after ~14 s of retries.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotilla } from '../../src/cli/support/run-flotilla.ts';
import { findFreePort } from '../support/shared/find-free-port.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('commands against a GitHub API nobody answers', () => {
  it.each([
    [['work', 'list'], 'flotilla work list'],
    [['github', 'setup-labels'], 'flotilla github setup-labels'],
  ])('%j says so in one line and exits 1', async (args, command) => {
    const repo = await mkdtemp(join(tmpdir(), 'flotilla-unreachable-'));
    dirs.push(repo);
    execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
    const apiUrl = `http://127.0.0.1:${await findFreePort()}`;
    const init = await runFlotilla(repo, [
      'init',
      '--provider',
      'github',
      '--owner',
      'acme',
      '--repo',
      'widgets',
      '--api-url',
      apiUrl,
    ]);
    expect(init.code, init.stderr).toBe(0);
    const run = await runFlotilla(repo, args, { env: { GITHUB_TOKEN: 'test-token' } });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `${command}: cannot reach GitHub at ${apiUrl} (ECONNREFUSED): check the network connection, and github.apiUrl in flotilla.config.json (set only for GitHub Enterprise Server)`,
    ]);
  });
});
