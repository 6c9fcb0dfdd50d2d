import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLOTILLA_BIN, type RunFixtures } from './create-run-fixtures.ts';

/** A `flotilla` child process: its combined stdout and stderr so far, and its exit code once it ends. */
export interface RunningFlotilla {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `node bin/flotilla.js …args` in `cwd` with `env` over this process's environment, collecting its
 * output. At the fixtures' cleanup it is killed (SIGKILL) if still running, and waited for.
 */
export function startFlotillaProcess(
  fixtures: RunFixtures,
  options: { cwd: string; args: string[]; env: Record<string, string | undefined> },
): RunningFlotilla {
  let output = '';
  const child = spawn(process.execPath, [FLOTILLA_BIN, ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  fixtures.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, output: () => output, exited };
}

/** The last `lines` lines of the repository's `.flotilla/logs/flotilla.log` ('' when there is none). */
export function flotillaLogTail(repoRoot: string, lines: number): string {
  const path = join(repoRoot, '.flotilla/logs/flotilla.log');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n') : '';
}

/** Polls `check` every 50 ms; past `timeoutMs` throws naming `what`, with `context()` (say, the output). */
export async function waitForCondition(
  check: () => boolean,
  timeoutMs: number,
  what: string,
  context: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}\n${context()}`);
}
