import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { createBashValidatorHook } from './create-bash-validator-hook.ts';
import { judgeRealPath } from './judge-real-path.ts';
import { validateBashCommand } from './validate-bash-command.ts';

// A real repository with the run's worktree and another item's, and the links the issue's implementor
// planted with `git apply`: `lnk -> <main>/.git/hooks`, `cfg -> <main>/.git`.
let repo: TempGitRepo;
let worktree: string;
let outside: string;
const hook = createBashValidatorHook();

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# r\n', 'src/a.ts': 'export {};\n' });
  await repo.git(['worktree', 'add', '--quiet', '.worktrees/agent/flotilla/1', '-b', 'agent/flotilla/1']);
  await repo.git(['worktree', 'add', '--quiet', '.worktrees/agent/flotilla/2', '-b', 'agent/flotilla/2']);
  repo.root = realpathSync(repo.root);
  worktree = join(repo.root, '.worktrees/agent/flotilla/1');
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'flotilla-judge-')));
  mkdirSync(join(repo.root, '.flotilla'));
  symlinkSync('../../../../.git/hooks', join(worktree, 'lnk'));
  symlinkSync('../../../../.GIT', join(worktree, 'cfg'));
  symlinkSync('src', join(worktree, 'src-link'));
  symlinkSync('../2', join(worktree, 'sibling'));
  symlinkSync(outside, join(worktree, 'out'));
  symlinkSync('loop-b', join(worktree, 'loop-a'));
  symlinkSync('loop-a', join(worktree, 'loop-b'));
  writeFileSync(join(worktree, 'x'), '#!/bin/sh\n');
});
afterAll(async () => {
  await repo.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

const bash = async (command: string, cwd: string = worktree) =>
  hook({ tool_name: 'Bash', tool_input: { command }, cwd });

describe('the bash validator follows symlinks of the paths it judges (with the hook cwd)', () => {
  it.each([
    [
      "printf '#!/bin/sh\\nid\\n' > lnk/pre-commit && chmod +x lnk/pre-commit",
      /lnk\/pre-commit' \(really '.*\/\.git\/hooks\/pre-commit'\) is inside a \.git directory/,
    ],
    ['cp x lnk/pre-commit', /'cp' refused: 'lnk\/pre-commit' \(really .*\.git\/hooks/],
    ["sed -i 's/a/b/' cfg/config", /'sed -i' refused: 'cfg\/config' \(really '.*\/\.GIT\/config'\)/],
    ['tee lnk/post-checkout < x', /'tee' refused/],
    ['mv x cfg/hooks/pre-push', /\.git directory/],
    ['echo x > sibling/a.txt', /inside '.*\/\.worktrees', which agents may not reach/],
    ['git worktree remove ../2', /'\.\.\/2' \(really '.*\/\.worktrees\/agent\/flotilla\/2'\) is inside/],
    ['echo x > ../../../../README.md', /inside '.*', which agents may not reach/],
    ['echo x > /etc/flotilla-judge', /is outside the worktree/],
    ['echo x > ../../../../.flotilla/x', /protected path|which agents may not reach/],
    ['echo x > ~/notes.txt', /in a home directory/],
    ['echo x > loop-a/x', /cannot be resolved \(too many symbolic links/],
    ['git -C ../2 status', /refused: '\.\.\/2'/],
    ['cp x src/*.ts ../2/', /inside '.*\/\.worktrees'/],
  ])('blocks %j', async (command, reason) => {
    await expect(bash(command)).resolves.toEqual({
      decision: 'block',
      reason: expect.stringMatching(reason),
    });
  });

  it.each([
    'echo x > src/b.ts',
    'echo x > src-link/b.ts',
    'echo x > new/dir/not-yet.txt',
    'echo x > /tmp/flotilla-judge-scratch.txt',
    'echo x > out/scratch.txt',
    'echo x > /dev/null 2>&1',
    "sed -i 's/a/b/' src/a.ts",
    'cp src/a.ts src/c.ts',
    'cp ./src/*.ts src-link/',
    'git -C . status',
    'git status && npm test',
  ])('allows %j', async (command) => {
    await expect(bash(command)).resolves.toEqual({});
  });

  it('cannot place relative writes after cd, so it refuses them', () => {
    const rules = { allowedCommands: new Set(['cd', 'echo']), blockPatterns: [] };
    const place = { cwd: worktree, root: worktree, deniedPaths: [] };
    expect(validateBashCommand('cd src && echo x > lnk', rules, place)).toEqual({
      allowed: false,
      reason: expect.stringContaining("'lnk' is relative and the command changes directory"),
    });
    expect(validateBashCommand('cd src && echo x > /dev/null', rules, place)).toEqual({ allowed: true });
  });

  it('blocks when the cwd cannot be resolved, and judges text only without a cwd', async () => {
    await expect(bash('echo x > a', '/nonexistent/flotilla')).resolves.toEqual({
      decision: 'block',
      reason: expect.stringContaining('internal validator error'),
    });
    await expect(
      hook({ tool_name: 'Bash', tool_input: { command: 'echo x > lnk/pre-commit' } }),
    ).resolves.toEqual({});
  });

  it('from the main checkout, writes into .worktrees/ are refused and the checkout itself is writable', async () => {
    await expect(bash('echo x > .worktrees/agent/flotilla/2/a', repo.root)).resolves.toEqual({
      decision: 'block',
      reason: expect.stringContaining('which agents may not reach'),
    });
    await expect(bash('echo x > notes.md', repo.root)).resolves.toEqual({});
  });

  it('judgeRealPath: a path that does not exist yet is judged by its existing parent', () => {
    const place = { cwd: worktree, root: worktree, deniedPaths: [], cwdMayChange: false };
    expect(judgeRealPath('lnk/new/deeper/file', place)).toMatch(/inside a \.git directory/);
    expect(judgeRealPath('brand/new/file', place)).toBeNull();
  });
});
