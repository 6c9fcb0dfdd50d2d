import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';

describe('reapOrphanProcesses', () => {
  it('ends processes (and their children) that carry a run CLAUDE_CONFIG_DIR of this state dir, and nothing else', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-reap-'));
    const paths = { stateDir, tmpDir: join(stateDir, 'tmp') };
    const spawnSleeper = (configDir: string) =>
      spawn('sh', ['-c', 'tail -f /dev/null & wait'], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
        stdio: 'ignore',
      });
    const ours = spawnSleeper(join(stateDir, 'claude', 'runs', 'session-1', 'config'));
    const other = spawnSleeper(join(tmpdir(), 'someone-else', 'config'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reaped = reapOrphanProcesses(paths);
      expect(reaped).toContain(ours.pid);
      expect(reaped).not.toContain(other.pid);
      expect(reaped.length).toBeGreaterThanOrEqual(2); // the shell and its tail child
      await new Promise((resolve) => ours.on('exit', resolve));
      expect(other.exitCode).toBeNull();
    } finally {
      other.kill('SIGKILL');
      ours.kill('SIGKILL');
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it("ends a codex process of a run of this state dir (its CODEX_HOME), not another repository's", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-reap-'));
    const paths = { stateDir, tmpDir: join(stateDir, 'tmp') };
    const spawnCodex = (codexHome: string) =>
      spawn('sh', ['-c', 'tail -f /dev/null & wait'], {
        env: { ...process.env, CODEX_HOME: codexHome },
        stdio: 'ignore',
      });
    const ours = spawnCodex(join(stateDir, 'codex', 'runs', 'session-1', 'home'));
    const other = spawnCodex(join(tmpdir(), 'other-repo', '.flotilla', 'codex', 'runs', 'session-1', 'home'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reaped = reapOrphanProcesses(paths);
      expect(reaped).toContain(ours.pid);
      expect(reaped).not.toContain(other.pid);
      await new Promise((resolve) => ours.on('exit', resolve));
      expect(other.exitCode).toBeNull();
    } finally {
      other.kill('SIGKILL');
      ours.kill('SIGKILL');
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it('ends checks commands (and their children) of this state dir, not those of another repository', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-reap-'));
    const paths = { stateDir, tmpDir: join(stateDir, 'tmp') };
    const spawnChecks = (worktree: string) =>
      spawn('sh', ['-c', 'tail -f /dev/null & wait'], {
        env: { ...process.env, FLOTILLA_CHECKS_WORKTREE: worktree },
        stdio: 'ignore',
      });
    const ours = spawnChecks(join(paths.tmpDir, 'checks-abc123'));
    const other = spawnChecks(join(tmpdir(), 'other-repo', '.flotilla', 'tmp', 'checks-abc123'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reaped = reapOrphanProcesses(paths);
      expect(reaped).toContain(ours.pid);
      expect(reaped).not.toContain(other.pid);
      expect(reaped.length).toBeGreaterThanOrEqual(2);
      await new Promise((resolve) => ours.on('exit', resolve));
      expect(other.exitCode).toBeNull();
    } finally {
      other.kill('SIGKILL');
      ours.kill('SIGKILL');
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it('finds nothing when /proc cannot be read', () => {
    expect(
      reapOrphanProcesses({ stateDir: '/x', tmpDir: '/x/tmp' }, { procDir: '/nonexistent-proc' }),
    ).toEqual([]);
  });
});
