import { describe, expect, it } from 'vitest';
import { type BwrapLayout, buildBwrapArgs } from './build-bwrap-args.ts';

const layout = (overrides: Partial<BwrapLayout> = {}): BwrapLayout => ({
  hiddenDirs: [],
  hiddenFiles: [],
  readable: [],
  writable: [],
  readOnlyBinds: [],
  cwd: '/work',
  command: ['sh', '-c', 'true'],
  ...overrides,
});

/** The mount operations only, as `flag path` strings (namespaces and the command left out). */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const flag = args[index];
    if (flag === '--') break;
    if (flag === '--tmpfs' || flag === '--remount-ro' || flag === '--dir')
      out.push(`${flag} ${args[index + 1]}`);
    if (flag === '--bind' || flag === '--ro-bind') out.push(`${flag} ${args[index + 1]} ${args[index + 2]}`);
    if (flag === '--tmpfs' || flag === '--remount-ro' || flag === '--dir') index += 1;
    if (flag === '--bind' || flag === '--ro-bind') index += 2;
  }
  return out;
}

describe('buildBwrapArgs', () => {
  it('starts from a read-only root with private /tmp, /run, /proc and namespaces, then runs the command', () => {
    const args = buildBwrapArgs(layout());
    expect(args.slice(0, 7)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']);
    for (const flag of [
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
      '--die-with-parent',
      '--new-session',
    ]) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain('--clearenv');
    expect(args.slice(-6)).toEqual(['--chdir', '/work', '--', 'sh', '-c', 'true']);
    expect(mounts(args)).toEqual(['--ro-bind / /', '--tmpfs /tmp', '--tmpfs /run', '--remount-ro /run']);
  });

  it('mounts shallow to deep: a writable worktree inside a hidden directory inside a re-exposed repository', () => {
    const args = buildBwrapArgs(
      layout({
        writable: ['/home/dev/repo/.worktrees/1'],
        hiddenDirs: ['/home/dev/repo/.worktrees', '/home/dev'],
        readable: ['/home/dev/repo'],
      }),
    );
    expect(mounts(args)).toEqual([
      '--ro-bind / /',
      '--tmpfs /tmp',
      '--tmpfs /run',
      '--tmpfs /home/dev',
      '--ro-bind /home/dev/repo /home/dev/repo',
      '--tmpfs /home/dev/repo/.worktrees',
      '--bind /home/dev/repo/.worktrees/1 /home/dev/repo/.worktrees/1',
      '--remount-ro /run',
      '--remount-ro /home/dev',
      '--remount-ro /home/dev/repo/.worktrees',
    ]);
  });

  it('leaves out mounts that change nothing: re-exposing the visible, hiding the hidden', () => {
    const args = buildBwrapArgs(
      layout({
        readable: ['/usr/lib/node', '/tmp/hidden/x'],
        hiddenDirs: ['/home', '/home/dev/.ssh'],
        hiddenFiles: ['/home/dev/.npmrc', '/etc/shadow'],
      }),
    );
    expect(mounts(args)).toEqual([
      '--ro-bind / /',
      '--tmpfs /tmp',
      '--tmpfs /run',
      '--tmpfs /home',
      '--ro-bind /dev/null /etc/shadow',
      '--ro-bind /tmp/hidden/x /tmp/hidden/x',
      '--remount-ro /run',
      '--remount-ro /home',
    ]);
  });

  it('at one path, hiding beats re-exposing and writable beats both', () => {
    expect(
      mounts(buildBwrapArgs(layout({ readable: ['/home/a'], hiddenDirs: ['/home', '/home/a'] }))),
    ).toEqual([
      '--ro-bind / /',
      '--tmpfs /tmp',
      '--tmpfs /run',
      '--tmpfs /home',
      '--remount-ro /run',
      '--remount-ro /home',
    ]);
    expect(mounts(buildBwrapArgs(layout({ writable: ['/srv/w'], hiddenDirs: ['/srv/w'] })))).toContain(
      '--bind /srv/w /srv/w',
    );
    const args = mounts(buildBwrapArgs(layout({ writable: ['/srv/w'], hiddenDirs: ['/srv/w'] })));
    expect(args.indexOf('--bind /srv/w /srv/w')).toBeGreaterThan(args.indexOf('--tmpfs /srv/w'));
  });

  it('binds read-only files over the writable ones and creates the sandbox home last', () => {
    const args = buildBwrapArgs(
      layout({
        writable: ['/w'],
        readOnlyBinds: [{ source: '/state/dot-git', target: '/w/.git' }],
        createDir: '/tmp/home',
      }),
    );
    const list = mounts(args);
    expect(list.indexOf('--ro-bind /state/dot-git /w/.git')).toBeGreaterThan(list.indexOf('--bind /w /w'));
    expect(list).toContain('--dir /tmp/home');
  });
});
