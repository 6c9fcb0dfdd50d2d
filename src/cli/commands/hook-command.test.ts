import { spawnSync } from 'node:child_process';
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';

const launcher = fileURLToPath(new URL('../../../bin/flotilla.js', import.meta.url));

function preToolUse(input: string, args: string[] = []) {
  const result = spawnSync(process.execPath, [launcher, 'hook', 'pre-tool-use', ...args], {
    input,
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const bash = (command: unknown) =>
  JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'x' },
  });

const tool = (tool_name: string, tool_input: unknown, cwd: string = process.cwd()) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', cwd, tool_name, tool_input });

describe('flotilla hook pre-tool-use', () => {
  it('exits 0 for an allowed Bash command', () => {
    expect(preToolUse(bash('git diff --stat'))).toMatchObject({ code: 0, stderr: '' });
  });

  it('exits 2 with the reason on stderr for a blocked Bash command', () => {
    expect(preToolUse(bash('env rm -rf /'))).toMatchObject({
      code: 2,
      stderr: "Blocked: matches dangerous pattern 'rm\\s'\n",
    });
  });

  it("exits 0 for Claude Code's own tools and for file tools inside the hook cwd", () => {
    expect(preToolUse(JSON.stringify({ tool_name: 'TodoWrite', tool_input: { todos: [] } })).code).toBe(0);
    expect(preToolUse(JSON.stringify({ tool_name: 'Edit', tool_input: { file_path: 'a' } })).code).toBe(0);
  }, 60_000);

  it('exits 2 for a file tool reaching .git or outside the hook cwd', () => {
    expect(preToolUse(tool('Write', { file_path: '.git/hooks/pre-commit', content: 'x' }))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('inside a .git directory'),
    });
    expect(preToolUse(tool('Read', { file_path: '/etc/passwd' }))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('it is outside the worktree'),
    });
    expect(preToolUse(tool('Read', { file_path: 'package.json' })).code).toBe(0);
  }, 60_000);

  it('exits 2 for a protected path in another case (case-insensitive file systems)', () => {
    expect(preToolUse(tool('Write', { file_path: '.Claude/settings.json', content: '{}' }))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'.Claude' is a protected path"),
    });
  });

  it('blocks (exit 2) a Bash call without a command string', () => {
    expect(preToolUse(bash(undefined))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no command'),
    });
  });

  // Any exit code but 0 and 2 is a non-blocking error: Claude Code would run the tool.
  it.each([
    ['not JSON', 'rm -rf /', /not valid JSON/],
    ['empty input', '', /not valid JSON/],
    ['a JSON array', '[]', /JSON object/],
    ['JSON null', 'null', /JSON object/],
    ['no tool_name', JSON.stringify({ tool_input: { command: 'ls' } }), /tool_name/],
    ['an empty tool_name', JSON.stringify({ tool_name: '', tool_input: {} }), /tool_name/],
    ['no tool_input', JSON.stringify({ tool_name: 'Bash' }), /tool_input/],
    ['a null tool_input', JSON.stringify({ tool_name: 'Write', tool_input: null }), /tool_input/],
    ['a string tool_input', JSON.stringify({ tool_name: 'Write', tool_input: '/x' }), /tool_input/],
    ['an array tool_input', JSON.stringify({ tool_name: 'Read', tool_input: [] }), /tool_input/],
    ['a cwd that is not a string', JSON.stringify({ tool_name: 'Read', tool_input: {}, cwd: 7 }), /cwd/],
    [
      'a cwd that does not exist',
      tool('Read', { file_path: 'a' }, '/nonexistent/flotilla-hook'),
      /internal error .*ENOENT/,
    ],
  ])('blocks (exit 2) with a clear error for %s', (_what, input, message) => {
    const result = preToolUse(input);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('blocks (exit 2) input larger than 4 MiB', () => {
    const huge = tool('Write', { file_path: 'a', content: 'x'.repeat(5 * 1024 * 1024) });
    const result = preToolUse(huge);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/could not read standard input \(more than 4194304 bytes\)/);
  });

  it('refuses MCP and other unknown tools unless --allow-tool names them', () => {
    const mcp = tool('mcp__evil__write_file', { path: 'notes.txt', content: 'x' });
    expect(preToolUse(mcp)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"mcp__evil__write_file" is not one this session may use'),
    });
    expect(preToolUse(tool('mcp__evil__ping', {}))).toMatchObject({ code: 2 });
    expect(preToolUse(mcp, ['--allow-tool', 'mcp__evil__*']).code).toBe(0);
    expect(preToolUse(mcp, ['--allow-tool', 'mcp__evil__write_file']).code).toBe(0);
    expect(preToolUse(mcp, ['--allow-tool', 'mcp__other__*']).code).toBe(2);
    expect(preToolUse(mcp, ['--allow-tool', '*'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--allow-tool '*' names no tool"),
    });
  }, 60_000);

  it("path-guards an allowed unknown tool's path-like fields, whatever the tool", () => {
    const allow = ['--allow-tool', 'mcp__fs__*'];
    for (const input of [
      { path: '../../.GIT/hooks/pre-commit' },
      { filePath: '/etc/passwd' },
      { paths: ['ok.txt', '/root/.ssh/id_rsa'] },
      { options: { directory: '/tmp' } },
      { cwd: '/', name: 'x' },
    ]) {
      expect(preToolUse(tool('mcp__fs__write', input), allow), JSON.stringify(input)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('Blocked: mcp__fs__write may not use'),
      });
    }
    expect(preToolUse(tool('mcp__fs__write', { paths: ['a.txt', 'src/b.ts'] }), allow).code).toBe(0);
  }, 60_000);
});

describe("flotilla hook pre-tool-use: Flotilla's paths of the repository", () => {
  let repo: TempGitRepo;
  let worktree: string;

  beforeAll(async () => {
    repo = await createTempGitRepo();
    await repo.commit('init', { 'README.md': 'x', '.gitignore': '.flotilla/\n.worktrees/\n' });
    await repo.write({ '.flotilla/flotilla.db': 'state', '.worktrees/other/a.txt': 'x' });
    worktree = join(repo.root, '.worktrees', 'agent', 'flotilla', '7');
    await repo.git(['worktree', 'add', '--quiet', '-b', 'flotilla/7', worktree]);
    repo.root = realpathSync(repo.root);
    worktree = realpathSync(worktree);
  });
  afterAll(() => repo.cleanup());

  it('from the main checkout, file tools may not read .flotilla/ or write into .worktrees/', () => {
    expect(preToolUse(tool('Read', { file_path: '.flotilla/flotilla.db' }, repo.root))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`inside '${repo.root}/.flotilla'`),
    });
    expect(
      preToolUse(tool('Write', { file_path: '.worktrees/other/a.txt', content: 'x' }, repo.root)),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining(`inside '${repo.root}/.worktrees'`) });
    expect(preToolUse(tool('Glob', { pattern: '.flotilla/*' }, repo.root)).code).toBe(2);
    expect(preToolUse(tool('Read', { file_path: 'README.md' }, repo.root)).code).toBe(0);
  }, 60_000);

  it('from a worktree, the same directories of the main checkout are denied', () => {
    expect(
      preToolUse(tool('Read', { file_path: `${repo.root}/.flotilla/flotilla.db` }, worktree)),
    ).toMatchObject({ code: 2 });
    expect(preToolUse(tool('Read', { file_path: '../../other/a.txt' }, worktree)).code).toBe(2);
    expect(preToolUse(tool('Write', { file_path: 'new.ts', content: 'x' }, worktree)).code).toBe(0);
    expect(preToolUse(tool('Read', { file_path: 'README.md' }, worktree)).code).toBe(0);
  }, 60_000);

  it("Bash: the issue's symlink into the main checkout's .git/hooks does not carry a write", () => {
    symlinkSync('../../../../.git/hooks', join(worktree, 'lnk'));
    const plant = "printf '#!/bin/sh\\nid\\n' > lnk/pre-commit && chmod +x lnk/pre-commit";
    expect(preToolUse(tool('Bash', { command: plant }, worktree))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is inside a .git directory'),
    });
    expect(preToolUse(tool('Bash', { command: 'printf x > notes.txt' }, worktree)).code).toBe(0);
  }, 60_000);
});
