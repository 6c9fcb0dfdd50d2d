import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const launcher = fileURLToPath(new URL('../../../bin/flotilla.js', import.meta.url));

function preToolUse(input: string) {
  const result = spawnSync(process.execPath, [launcher, 'hook', 'pre-tool-use'], {
    input,
    encoding: 'utf8',
    timeout: 20_000,
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

  it('exits 0 for other tools and for file tools inside the hook cwd', () => {
    expect(preToolUse(JSON.stringify({ tool_name: 'TodoWrite', tool_input: { todos: [] } })).code).toBe(0);
    expect(preToolUse(JSON.stringify({ tool_name: 'Edit', tool_input: { file_path: 'a' } })).code).toBe(0);
  }, 60_000);

  it('exits 2 for a file tool reaching .git or outside the hook cwd', () => {
    const fileTool = (tool_name: string, tool_input: Record<string, unknown>) =>
      JSON.stringify({ hook_event_name: 'PreToolUse', cwd: repoDir, tool_name, tool_input });
    const repoDir = process.cwd();
    expect(preToolUse(fileTool('Write', { file_path: '.git/hooks/pre-commit', content: 'x' }))).toMatchObject(
      {
        code: 2,
        stderr: expect.stringContaining('inside a .git directory'),
      },
    );
    expect(preToolUse(fileTool('Read', { file_path: '/etc/passwd' }))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('it is outside the worktree'),
    });
    expect(preToolUse(fileTool('Read', { file_path: 'package.json' })).code).toBe(0);
  }, 60_000);

  it('blocks (exit 2) a Bash call without a command string', () => {
    expect(preToolUse(bash(undefined))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no command'),
    });
  });

  it.each([
    ['not JSON', 'rm -rf /', /not valid JSON/],
    ['empty input', '', /not valid JSON/],
    ['a JSON array', '[]', /JSON object/],
    ['no tool_name', JSON.stringify({ tool_input: { command: 'ls' } }), /tool_name/],
    ['no tool_input', JSON.stringify({ tool_name: 'Bash' }), /tool_input/],
  ])('exits 1 with a clear error for %s', (_what, input, message) => {
    const result = preToolUse(input);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
