/**
 * The README's Quick start, followed literally: its `sh` block is parsed from README.md and run line by line
 * in a fresh repository, so the README cannot drift from what works. `flotilla` is this checkout's launcher,
 * `$EDITOR <file>` writes an approved spec, `npm …` lines (setting up Flotilla itself) are skipped, every
 * other line runs through `sh` as written. No model credential is set: the block's dry run (`init
 * --scripted`) runs the real Claude Agent SDK against the sample scenario on 127.0.0.1.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_GIT_IDENTITY_ENV } from '../../src/cli/support/run-flotilla.ts';
import { agentProcessesOf } from '../support/agent-processes-of.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';

const README = join(import.meta.dirname, '../../README.md');

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

/** The lines of the first ```sh block under the "## Quick start" heading. */
function readQuickStart(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Quick start'));
  if (section === undefined) throw new Error('README.md has no "## Quick start" section');
  const block = /^```sh\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (block === undefined) throw new Error('the Quick start has no ```sh block');
  return block.split('\n').filter((line) => line.trim() !== '');
}

const SPEC = `---
status: approved
---
# My feature

A greeting for new users.

## Acceptance criteria

1. The repository says hello.
`;

interface Step {
  line: string;
  code: number | null;
  output: string;
}

function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Step> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ line: command, code, output }));
  });
}

describe('README Quick start', () => {
  it('runs as written in a fresh repository, with no API key: init, spec, commit, run, list, merge', async () => {
    const lines = readQuickStart(await readFile(README, 'utf8'));
    const repo = await mkdtemp(join(tmpdir(), 'flotilla-quick-start-'));
    dirs.push(repo);
    execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...TEST_GIT_IDENTITY_ENV,
      // No credential of any kind: the dry run must not need one.
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_AUTH_TOKEN: '',
      CLAUDE_CODE_OAUTH_TOKEN: '',
      ANTHROPIC_BASE_URL: '',
    };
    const flotilla = `"${process.execPath}" "${FLOTILLA_BIN}"`;

    const steps: Step[] = [];
    for (const line of lines) {
      const command = line.trim();
      if (/^(npm|npx) /.test(command)) continue; // setting up Flotilla itself: this checkout already is
      const editor = /^\$EDITOR\s+(\S+)/.exec(command);
      if (editor?.[1] !== undefined) {
        await mkdir(dirname(join(repo, editor[1])), { recursive: true });
        await writeFile(join(repo, editor[1]), SPEC);
        steps.push({ line: command, code: 0, output: '' });
        continue;
      }
      const step = await runShell(command.replace(/^flotilla\b/, flotilla), repo, env);
      steps.push({ ...step, line: command });
      const transcript = steps.map((done) => `$ ${done.line}\n${done.output}`).join('\n');
      expect(step.code, `"${command}" failed:\n${transcript}`).toBe(0);
    }

    // The block is the whole loop, not a subset that happens to pass.
    const ran = (pattern: RegExp) => steps.find((step) => pattern.test(step.line));
    expect(ran(/^flotilla init\b/)?.output).toContain('flotilla.scenario.json');
    expect(ran(/^git .*commit/)).toBeDefined();
    expect(ran(/^flotilla run\b/)?.output).toMatch(/work item #1 review → approved/);
    // Scripted runs' costs are made up: marked as such.
    expect(ran(/^flotilla run\b/)?.output).toMatch(/planner finished .*\$\d+\.\d{4} \(scripted\)\)/);
    expect(ran(/^flotilla work list\b/)?.output).toMatch(/#1\s+approved/);
    expect(ran(/^flotilla merge\b/)?.output).toMatch(/merged revision r\d+ \(flotilla\/1\) into main/);
    // The implementor's change is on the default branch now.
    const merged = execFileSync('git', ['show', 'main:docs/flotilla-dry-run.md'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(merged).toContain('Flotilla dry run');
  }, 240_000);
});
