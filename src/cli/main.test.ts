import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './main.ts';
import { closestCommandName } from './support/report-unknown-commands.ts';

const launcher = fileURLToPath(new URL('../../bin/flotilla.js', import.meta.url));
const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The real launcher in a directory that is not a repository (none of these commands needs one). */
function flotilla(...args: string[]) {
  const result = spawnSync(process.execPath, [launcher, ...args], {
    cwd: tmpdir(),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

describe('flotilla --version', () => {
  it("prints package.json's version and exits 0", () => {
    expect(flotilla('--version')).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
  });
});

describe('unknown commands', () => {
  it('print one line naming the closest command and --help, exit 2, no help text', () => {
    expect(flotilla('wrok')).toEqual({
      code: 2,
      stdout: '',
      stderr: "flotilla: unknown command 'wrok'; did you mean 'flotilla work'? see 'flotilla --help'\n",
    });
  });

  it('work the same one level down', () => {
    expect(flotilla('work', 'lsit')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "flotilla work: unknown command 'lsit'; did you mean 'flotilla work list'? see 'flotilla work --help'\n",
    });
  });

  it('point only at --help when nothing is close', () => {
    expect(flotilla('xyzzy')).toEqual({
      code: 2,
      stdout: '',
      stderr: "flotilla: unknown command 'xyzzy'; see 'flotilla --help'\n",
    });
  });

  it('closest match: typos, transpositions and prefixes; nothing for unrelated words', () => {
    const names = ['run', 'runs', 'merge', 'work', 'init', 'demo'];
    expect(closestCommandName('mrege', names)).toBe('merge');
    expect(closestCommandName('wokr', names)).toBe('work');
    expect(closestCommandName('dem', names)).toBe('demo');
    expect(closestCommandName('RUNS', names)).toBe('runs');
    expect(closestCommandName('telemetry', names)).toBeNull();
  });
});

describe('usage errors', () => {
  it('are one line naming the command and its --help, exit 2, no help text', () => {
    expect(flotilla('merge')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "flotilla merge: missing required argument 'id' (or --queue to merge every approved item); see 'flotilla merge --help'\n",
    });
    expect(flotilla('work', 'list', '--bogus')).toEqual({
      code: 2,
      stdout: '',
      stderr: "flotilla work list: unknown option '--bogus'; see 'flotilla work list --help'\n",
    });
    const invalid = flotilla('runs', '--limit', 'x');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(
      /^flotilla runs: option '--limit <n>' argument 'x' is invalid\. .*; see 'flotilla runs --help'\n$/,
    );
  });
});

describe('--help', () => {
  it('groups the commands in the order a new user meets them, help last', () => {
    const text = flotilla('--help').stdout;
    const headings = text.split('\n').filter((line) => /^[A-Z][\w ]*:$/.test(line));
    expect(headings).toEqual([
      'Options:',
      'Set up:',
      'Run:',
      'Work items:',
      'Review and merge:',
      'Inspect:',
      'Tools:',
    ]);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^ {2}help \[command\]/);
  });

  it('says that `work` covers GitHub issues too, and lists the exit codes of `run`', () => {
    expect(flotilla('work', '--help').stdout.replace(/\s+/g, ' ')).toContain(
      'or the GitHub issues of `provider: "github"`',
    );
    expect(flotilla('run', '--help').stdout).toMatch(
      /Exit codes:\n {2}0 .*\n[\s\S]* {2}1 [\s\S]* {2}2 [\s\S]* {2}130 /,
    );
  });

  it("never points at files inside Flotilla's own source tree (users have no src/)", () => {
    const offending = allCommands(buildProgram())
      .map((command) => command.helpInformation())
      .filter((text) => /\bsrc\/|\.tsx?\b|README/.test(text));
    expect(offending).toEqual([]);
  });
});
