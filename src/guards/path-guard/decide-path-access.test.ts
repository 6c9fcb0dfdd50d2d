import { describe, expect, it } from 'vitest';
import { decidePathAccess, isWithin } from './decide-path-access.ts';
import type { PathGuardScope } from './types.ts';

const implementor: PathGuardScope = {
  root: '/repo/.worktrees/agent/flotilla/1',
  writable: true,
  readOnlyPaths: ['/opt/docs', '/repo/.flotilla/claude/runs/s1'],
  deniedPaths: ['/repo/.worktrees', '/repo/.flotilla'],
};

describe('decidePathAccess (pure)', () => {
  it('allows reads and writes in the root, carved out of the denied .worktrees', () => {
    expect(decidePathAccess('/repo/.worktrees/agent/flotilla/1/src/a.ts', 'write', implementor)).toBeNull();
    expect(decidePathAccess('/repo/.worktrees/agent/flotilla/1', 'read', implementor)).toBeNull();
  });

  it('denies a sibling worktree, the denied directory itself and a root-prefixed sibling name', () => {
    expect(decidePathAccess('/repo/.worktrees/agent/flotilla/2/a', 'read', implementor)).toMatch(
      /another worktree/,
    );
    expect(decidePathAccess('/repo/.worktrees', 'read', implementor)).toMatch(/another worktree/);
    // `/…/flotilla/10` starts with the root's text `/…/flotilla/1` but is not inside it.
    expect(decidePathAccess('/repo/.worktrees/agent/flotilla/10/a', 'read', implementor)).toMatch(/another/);
  });

  it('lets a read-only path inside a denied one be read, never written', () => {
    expect(
      decidePathAccess('/repo/.flotilla/claude/runs/s1/tool-output.txt', 'read', implementor),
    ).toBeNull();
    expect(decidePathAccess('/repo/.flotilla/claude/runs/s1/x', 'write', implementor)).toMatch(
      /Flotilla's state/,
    );
    expect(decidePathAccess('/repo/.flotilla/claude/runs/s2/x', 'read', implementor)).toMatch(
      /Flotilla's state/,
    );
    expect(decidePathAccess('/opt/docs/a.md', 'read', implementor)).toBeNull();
    expect(decidePathAccess('/opt/docs/a.md', 'write', implementor)).toMatch(/outside the worktree/);
  });

  it('refuses .git in any case and anywhere, even inside the root or a read-only path', () => {
    for (const path of [
      '/repo/.git/hooks/x',
      '/repo/.worktrees/agent/flotilla/1/.git',
      '/opt/docs/.Git/config',
    ]) {
      expect(decidePathAccess(path, 'read', implementor)).toMatch(/\.git directory/);
    }
  });

  it('refuses writes to protected names inside the root, but reads them', () => {
    const root = implementor.root;
    for (const name of [
      '.claude/settings.json',
      '.envrc',
      'sub/.bashrc',
      '.config/git/config',
      '.flotilla/x',
      // Case variants: the same files on macOS and Windows.
      '.Claude/settings.json',
      '.CONFIG/Git/config',
      'sub/.BashRC',
    ]) {
      expect(decidePathAccess(`${root}/${name}`, 'write', implementor), name).toMatch(/protected path/);
      expect(decidePathAccess(`${root}/${name}`, 'read', implementor), name).toBeNull();
    }
    expect(decidePathAccess(`${root}/.config/app.json`, 'write', implementor)).toBeNull();
  });

  it('a read-only role writes nothing', () => {
    const reviewer: PathGuardScope = { root: '/repo', writable: false, readOnlyPaths: [], deniedPaths: [] };
    expect(decidePathAccess('/repo/src/a.ts', 'read', reviewer)).toBeNull();
    expect(decidePathAccess('/repo/src/a.ts', 'write', reviewer)).toMatch(/read-only/);
  });

  it('isWithin compares whole components', () => {
    expect(isWithin('/a/b', '/a')).toBe(true);
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/ab', '/a')).toBe(false);
    expect(isWithin('/anything', '/')).toBe(true);
  });
});
