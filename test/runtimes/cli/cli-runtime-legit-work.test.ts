import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImplementorResult } from '../../../src/domain/index.ts';
import { createBranchFromPatch } from '../../../src/providers/shared/create-branch-from-patch.ts';
import type { Sandbox } from '../../../src/sandbox/sandbox-types.ts';
import {
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  implementorParams,
} from '../../support/cli-runtime-fixture.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

/**
 * Legitimate work still passes inside the OS sandbox (issue #25): the agent process (the scripted agent CLI,
 * the whole process sandboxed) installs a local dependency with npm (a tarball in the worktree; no network
 * inside), runs the project's tests with `npm test` (node --test) and commits; the patch Flotilla takes out
 * becomes the item's branch as the providers make it, and that branch installs and passes its tests.
 */
let cli: CliRuntimeFixture | undefined;
afterEach(async () => {
  await cli?.cleanup();
  cli = undefined;
});

/** The default sandbox, with the fixture's directory (the agent's script, its calls log) writable too. */
function fixtureSandbox(dir: string): Sandbox {
  const sandbox = createTestSandbox();
  return {
    mode: sandbox.mode,
    wrap: (request, file, args) =>
      sandbox.wrap({ ...request, writable: [...request.writable, dir] }, file, args),
  };
}

const PACKAGE = {
  name: 'app',
  version: '1.0.0',
  private: true,
  type: 'module',
  scripts: { test: 'node --test' },
};

describe('CLI runtime in the OS sandbox: legitimate work', () => {
  it('npm install of a local tarball, npm test and git commit work inside; the patch becomes the item branch', async () => {
    cli = await createCliRuntimeFixture();
    const { repo } = cli;
    // A dependency packed as npm packs it (`package/` inside the tarball), committed in the repository.
    const packDir = join(cli.dir, 'shout');
    await mkdir(join(packDir, 'package'), { recursive: true });
    await writeFile(
      join(packDir, 'package', 'package.json'),
      JSON.stringify({ name: 'shout', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(
      join(packDir, 'package', 'index.js'),
      "export const shout = (s) => s.toUpperCase() + '!';\n",
    );
    await mkdir(join(repo.root, 'vendor'));
    execFileSync('tar', ['czf', join(repo.root, 'vendor', 'shout-1.0.0.tgz'), '-C', packDir, 'package']);
    await repo.commit('project', {
      'package.json': `${JSON.stringify(PACKAGE, null, 2)}\n`,
      '.gitignore': 'node_modules/\n',
    });
    const npm = 'npm --offline --no-audit --no-fund --no-update-notifier';
    const runtime = await cli.runtimeFor(
      [
        {
          steps: [
            { run: `${npm} install ./vendor/shout-1.0.0.tgz 2>&1 && echo INSTALL-OK` },
            {
              write: {
                path: 'src/greet.js',
                content: "import { shout } from 'shout';\nexport const greet = (n) => shout('hello ' + n);\n",
              },
            },
            {
              write: {
                path: 'test/greet.test.js',
                content:
                  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { greet } from '../src/greet.js';\ntest('greets', () => assert.equal(greet('ada'), 'HELLO ADA!'));\n",
              },
            },
            { run: `${npm} test 2>&1 && echo TESTS-OK` },
            { commit: 'greet with shout' },
            { run: 'git log --oneline -1 && git status --porcelain && echo COMMIT-OK' },
            // The sandbox is on: the repository is read-only inside.
            { run: `touch ${repo.root}/outside || echo OUTSIDE-REFUSED` },
            { signal: { status: 'done', result: { outcome: 'completed', summary: 'Greets loudly.' } } },
          ],
        },
      ],
      { sandbox: fixtureSandbox(cli.dir) },
    );
    const handle = await runtime.startAgent(
      implementorParams('## Work Item #7 — Greet\n\nObjective: greet.\n'),
    );
    const result = (await handle.result) as ImplementorResult & { patch: string | null };
    const transcript = await readFile(handle.logFilePath ?? '', 'utf8');

    expect(transcript).toContain('INSTALL-OK');
    expect(transcript).toMatch(/# pass 1\b/);
    expect(transcript).toContain('TESTS-OK');
    expect(transcript).toContain('greet with shout');
    expect(transcript).toContain('COMMIT-OK');
    expect(transcript).toContain('OUTSIDE-REFUSED');
    expect(result.outcome).toBe('completed');
    // The agent's commit went to its per-run git directory: the repository has no new commit or ref.
    expect(await repo.git(['log', '--all', '--format=%s'])).not.toContain('greet with shout');
    const patch = result.patch ?? '';
    expect(patch).toContain('+++ b/src/greet.js');
    expect(patch).toContain('+++ b/package-lock.json');
    expect(patch).toContain('"shout": "file:vendor/shout-1.0.0.tgz"');
    expect(patch).not.toContain('node_modules/shout/index.js');

    // The item's branch, as the providers make it from the patch; it installs and passes its tests.
    const branch = await createBranchFromPatch({
      repoRoot: repo.root,
      defaultBranch: 'main',
      branchName: 'flotilla/7',
      patch,
      commitMessage: 'Greet loudly (#7)',
      author: { name: 'Flotilla', email: 'flotilla@flotilla.invalid' },
    });
    expect(await repo.git(['rev-parse', 'flotilla/7'])).toContain(branch.headSHA);
    const files = (await repo.git(['ls-tree', '-r', '--name-only', 'flotilla/7'])).split('\n');
    expect(files).toEqual(
      expect.arrayContaining(['package-lock.json', 'src/greet.js', 'test/greet.test.js']),
    );
    const check = join(cli.dir, 'check');
    await repo.git(['worktree', 'add', '-q', '--detach', check, 'flotilla/7']);
    execFileSync('sh', ['-c', `${npm} ci && ${npm} test`], { cwd: check, stdio: 'pipe' });
  }, 120_000);
});
