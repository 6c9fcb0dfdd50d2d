import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const launcher = fileURLToPath(new URL('../../../bin/flotilla.js', import.meta.url));

function flotilla(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [launcher, ...args], {
    input,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('flotilla bash-check', () => {
  it('exits 0 for an allowed command', () => {
    expect(flotilla(['bash-check', '--', 'git status && npm test'])).toMatchObject({
      code: 0,
      stdout: 'allowed\n',
    });
  });

  it('exits 2 with the reason on stderr for a blocked command', () => {
    expect(flotilla(['bash-check', '--', 'git status; rm -rf x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "Blocked: matches dangerous pattern 'rm\\s'\n",
    });
  });

  it('joins several words into one command line', () => {
    expect(flotilla(['bash-check', '--', 'git', 'push'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'git push' is not allowed"),
    });
  });

  it('applies --allow and --block-pattern', () => {
    expect(flotilla(['bash-check', '--allow', 'cat', '--', 'cat README.md']).code).toBe(0);
    expect(flotilla(['bash-check', '--block-pattern', 'npm\\s+test', '--', 'npm test']).code).toBe(2);
  });

  it('with --cwd, follows symlinks of write targets as the hook does', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'flotilla-bash-check-')));
    try {
      mkdirSync(join(dir, '.git/hooks'), { recursive: true });
      symlinkSync('.git/hooks', join(dir, 'lnk'));
      expect(flotilla(['bash-check', '--', 'echo x > lnk/pre-commit']).code).toBe(0);
      expect(flotilla(['bash-check', '--cwd', dir, '--', 'echo x > lnk/pre-commit'])).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('is inside a .git directory'),
      });
      expect(flotilla(['bash-check', '--cwd', dir, '--', 'echo x > notes.txt']).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('prints the effective rules', () => {
    const text = flotilla(['bash-check', '--print-rules']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('git\\s+reset\\s+--hard');
    expect(text.stdout).toContain('Structural rules');
    const json = flotilla(['bash-check', '--print-rules', '--json', '--allow', 'make']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      allowedCommands: expect.arrayContaining(['git', 'make']),
    });
  });

  it('is a usage error (exit 2) without a command or with an invalid pattern, naming the option', () => {
    expect(flotilla(['bash-check'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("after '--'"),
    });
    expect(flotilla(['bash-check', '--block-pattern', '(', '--', 'ls'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('extraBlockPatterns[0]: not a valid regular expression'),
    });
  });
});
