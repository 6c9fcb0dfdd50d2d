import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, openDatabase } from '../../src/storage/index.ts';
import { agentProcessesOf } from './agent-processes-of.ts';
import { checksProcessesOf } from './checks-processes-of.ts';
import { FLOTILLA_BIN, type RunFixtures } from './create-run-fixtures.ts';
import { flotillaLogTail, waitForCondition } from './start-flotilla-process.ts';

/**
 * A real `flotilla run --headless` child process, started as the leader of its own process group so a test can
 * `kill -9` the whole group (flotilla and the agents' `claude` CLIs it started) the way a closed terminal, an
 * OOM killer or `kill -9 -<pgid>` does — with no shutdown bookkeeping at all.
 */
export interface FlotillaRunProcess {
  pid: number;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<number | null>;
  /** Resolves once the output holds `pattern`; on timeout, throws with the output and the log's tail. */
  waitForOutput(pattern: string | RegExp, timeoutMs: number): Promise<void>;
  /** SIGKILL to the process group; resolves once flotilla has exited and no process of the group runs. */
  killGroup(): Promise<void>;
  /** SIGTERM (a clean stop); resolves with the exit code. */
  stop(timeoutMs: number): Promise<number | null>;
}

export function startFlotillaRun(
  fixtures: RunFixtures,
  repoRoot: string,
  env: Record<string, string>,
  args: string[] = [],
): FlotillaRunProcess {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [FLOTILLA_BIN, 'run', '--headless', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('flotilla run did not start');
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const context = () => `${output}\n--- log ---\n${flotillaLogTail(repoRoot, 60)}`;
  const killGroup = async () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
    await exited;
    await waitForCondition(
      () => processGroupMembers(pid).length === 0,
      10_000,
      'the process group to end',
      () => processGroupMembers(pid).join(' '),
    );
  };
  fixtures.defer(killGroup);
  return {
    pid,
    output: () => output,
    exited,
    waitForOutput: (pattern, timeoutMs) =>
      waitForCondition(
        () => (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output)),
        timeoutMs,
        `flotilla run to print ${String(pattern)}`,
        context,
      ),
    killGroup,
    async stop(timeoutMs) {
      child.kill('SIGTERM');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`flotilla run did not stop in ${timeoutMs} ms\n${context()}`)),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Live (not zombie) processes whose process group is `pgid` (Linux /proc). */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // ended meanwhile
    }
    // After the command name (which may hold parens): state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(entry));
  }
  return members;
}

/** Agent (`claude` CLI) and checks processes started for this repository that still run. */
export function leftoverProcessesOf(repoRoot: string): number[] {
  return [...agentProcessesOf(repoRoot), ...checksProcessesOf(repoRoot)];
}

/** Merges `changes` into the repository's flotilla.config.json (top-level keys replaced). */
export function updateFlotillaConfig(repoRoot: string, changes: Record<string, unknown>): void {
  const path = join(repoRoot, 'flotilla.config.json');
  const config = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...config, ...changes }, null, 2));
}

/** Runs `read` on the repository's `.flotilla/flotilla.db` (opened for the call, then closed). */
export function readDatabase<T>(repoRoot: string, read: (db: Database) => T): T {
  const db = openDatabase(join(repoRoot, '.flotilla/flotilla.db'));
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The repository's git worktrees besides its main checkout (paths). */
export function extraWorktrees(repoRoot: string): string[] {
  return execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repoRoot })
    .toString()
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .slice(1);
}
