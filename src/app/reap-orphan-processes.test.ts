import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat, after the parenthesised command name (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/**
 * A shell holding a `tail` child, both with `name=value` in their environment. Resolves once the child exists
 * (what the reaper must find), however long the shell takes to start it.
 */
async function spawnShellWithChild(name: string, value: string): Promise<ChildProcess> {
  // Its own process group, so the test can end the shell and its child together (killing the shell alone
  // left the child running, reparented to PID 1).
  const shell = spawn('sh', ['-c', 'tail -f /dev/null & wait'], {
    env: { ...process.env, [name]: value },
    stdio: 'ignore',
    detached: true,
  });
  while (shell.pid === undefined || childrenOf(shell.pid).length === 0) {
    if (shell.exitCode !== null) throw new Error(`the shell with ${name} exited early`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return shell;
}

/** Ends the shell's whole process group (the shell and its `tail`); one already gone is fine. */
function killGroup(shell: ChildProcess): void {
  try {
    process.kill(-shell.pid!, 'SIGKILL');
  } catch {
    // ESRCH: the reaper ended them all already.
  }
}

/**
 * A fresh state dir, a shell (with its child) whose `name` is `ours(paths)` and one whose `name` is `other`;
 * runs `check`, then kills both and removes the state dir.
 */
async function withShells(
  name: string,
  ours: (paths: { stateDir: string; tmpDir: string }) => string,
  other: string,
  check: (
    paths: { stateDir: string; tmpDir: string },
    ours: ChildProcess,
    other: ChildProcess,
  ) => Promise<void>,
): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-reap-'));
  const paths = { stateDir, tmpDir: join(stateDir, 'tmp') };
  const started: ChildProcess[] = [];
  try {
    started.push(await spawnShellWithChild(name, ours(paths)));
    started.push(await spawnShellWithChild(name, other));
    await check(paths, started[0]!, started[1]!);
  } finally {
    for (const shell of started) killGroup(shell);
    await rm(stateDir, { recursive: true, force: true });
  }
}

describe('reapOrphanProcesses', () => {
  it('ends processes (and their children) that carry a run CLAUDE_CONFIG_DIR of this state dir, and nothing else', async () => {
    await withShells(
      'CLAUDE_CONFIG_DIR',
      ({ stateDir }) => join(stateDir, 'claude', 'runs', 'session-1', 'config'),
      join(tmpdir(), 'someone-else', 'config'),
      async (paths, ours, other) => {
        const reaped = reapOrphanProcesses(paths);
        expect(reaped).toContain(ours.pid);
        expect(reaped).not.toContain(other.pid);
        expect(reaped.length).toBeGreaterThanOrEqual(2); // the shell and its tail child
        await new Promise((resolve) => ours.on('exit', resolve));
        expect(other.exitCode).toBeNull();
      },
    );
  });

  it("ends a codex process of a run of this state dir (its CODEX_HOME), not another repository's", async () => {
    await withShells(
      'CODEX_HOME',
      ({ stateDir }) => join(stateDir, 'codex', 'runs', 'session-1', 'home'),
      join(tmpdir(), 'other-repo', '.flotilla', 'codex', 'runs', 'session-1', 'home'),
      async (paths, ours, other) => {
        const reaped = reapOrphanProcesses(paths);
        expect(reaped).toContain(ours.pid);
        expect(reaped).not.toContain(other.pid);
        await new Promise((resolve) => ours.on('exit', resolve));
        expect(other.exitCode).toBeNull();
      },
    );
  });

  it('ends checks commands (and their children) of this state dir, not those of another repository', async () => {
    await withShells(
      'FLOTILLA_CHECKS_WORKTREE',
      ({ tmpDir }) => join(tmpDir, 'checks-abc123'),
      join(tmpdir(), 'other-repo', '.flotilla', 'tmp', 'checks-abc123'),
      async (paths, ours, other) => {
        const reaped = reapOrphanProcesses(paths);
        expect(reaped).toContain(ours.pid);
        expect(reaped).not.toContain(other.pid);
        expect(reaped.length).toBeGreaterThanOrEqual(2);
        await new Promise((resolve) => ours.on('exit', resolve));
        expect(other.exitCode).toBeNull();
      },
    );
  });

  it('finds nothing when /proc cannot be read', () => {
    expect(
      reapOrphanProcesses({ stateDir: '/x', tmpDir: '/x/tmp' }, { procDir: '/nonexistent-proc' }),
    ).toEqual([]);
  });
});
