/** What the sandbox's file system looks like, as absolute real paths; plan-sandbox-layout.ts decides it. */
import { SANDBOX_ID_VARIABLE } from './end-stray-sandboxes.ts';
import { isWithin } from './is-within.ts';

export interface BwrapLayout {
  /** Directories that must exist, replaced by an empty tmpfs (made read-only once every mount is in place). */
  hiddenDirs: readonly string[];
  /** Files replaced by an empty read-only file (`/dev/null`). */
  hiddenFiles: readonly string[];
  /** Made readable again although under a hidden directory (bound read-only). */
  readable: readonly string[];
  /** Bound read-write, even under a hidden directory. */
  writable: readonly string[];
  /** Bound read-only over `target`, last (a worktree's `.git` file, the bridge's socket directory). */
  readOnlyBinds: readonly { source: string; target: string }[];
  /** A directory created in the sandbox's private `/tmp` (the sandbox home), or none. */
  createDir?: string;
  cwd: string;
  command: readonly string[];
  /**
   * This invocation's id, set as FLOTILLA_SANDBOX_ID inside: on bwrap's command line, so that what a kill
   * left of the sandbox can be found and ended (end-stray-sandboxes.ts).
   */
  id?: string;
}

/** Always private: a fresh writable `/tmp`, an empty `/run` (sockets of system services live there). */
export const PRIVATE_TMP = '/tmp';
export const PRIVATE_RUN = '/run';

/**
 * Namespaces: a private PID namespace (so `/proc` shows only the sandbox, and the sandbox dies with bwrap),
 * no network but its own loopback, and private IPC, UTS and cgroup views. `--new-session` keeps the command
 * off Flotilla's terminal (no TIOCSTI injection); stdio pipes are unaffected.
 */
export const NAMESPACE_ARGS: readonly string[] = [
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--unshare-net',
  '--die-with-parent',
  '--new-session',
];

type Kind = 'read' | 'hide-dir' | 'hide-file' | 'write';
interface Op {
  kind: Kind;
  path: string;
}

/** At one path, the later operation wins: hiding beats re-exposing, writable beats both. */
const RANK: Readonly<Record<Kind, number>> = { read: 0, 'hide-dir': 1, 'hide-file': 1, write: 2 };

/**
 * The bubblewrap arguments for a layout. bwrap applies mounts in order, so they are sorted shallow to deep:
 * a deeper path's mount lands on top of its parent's (a writable worktree inside a hidden `.worktrees/`, a
 * hidden `.flotilla/` inside a re-exposed repository). A mount that changes nothing (re-exposing what is
 * visible, hiding what is already hidden) is left out.
 */
export function buildBwrapArgs(layout: BwrapLayout): string[] {
  const privateDirs: Op[] = [
    { kind: 'hide-dir', path: PRIVATE_TMP },
    { kind: 'hide-dir', path: PRIVATE_RUN },
  ];
  const ops: Op[] = [
    ...privateDirs,
    ...layout.hiddenDirs.map((path): Op => ({ kind: 'hide-dir', path })),
    ...layout.hiddenFiles.map((path): Op => ({ kind: 'hide-file', path })),
    // Denied beats allowed at the same path.
    ...layout.readable
      .filter((path) => !layout.hiddenDirs.includes(path) && !layout.hiddenFiles.includes(path))
      .map((path): Op => ({ kind: 'read', path })),
    ...layout.writable.map((path): Op => ({ kind: 'write', path })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || RANK[a.kind] - RANK[b.kind]);

  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...NAMESPACE_ARGS];
  const emitted: Op[] = [];
  const readOnlyTmpfs: string[] = [];
  for (const op of ops) {
    const covering = coveringState(emitted, op.path);
    if (op.kind === 'read') {
      if (covering !== 'hidden') continue;
      args.push('--ro-bind', op.path, op.path);
    } else if (op.kind === 'hide-dir' || op.kind === 'hide-file') {
      if (covering === 'hidden') continue;
      if (op.kind === 'hide-file') args.push('--ro-bind', '/dev/null', op.path);
      else {
        args.push('--tmpfs', op.path);
        if (op.path !== PRIVATE_TMP) readOnlyTmpfs.push(op.path);
      }
    } else {
      args.push('--bind', op.path, op.path);
    }
    emitted.push(op);
  }
  for (const { source, target } of layout.readOnlyBinds) args.push('--ro-bind', source, target);
  if (layout.createDir !== undefined) args.push('--dir', layout.createDir);
  // Last: mount points inside these had to be created first. Non-recursive, so binds inside stay as they are.
  for (const path of readOnlyTmpfs) args.push('--remount-ro', path);
  if (layout.id !== undefined) args.push('--setenv', SANDBOX_ID_VARIABLE, layout.id);
  args.push('--chdir', layout.cwd, '--', ...layout.command);
  return args;
}

/** Whether `path` is visible under the mounts emitted so far (the deepest covering mount decides). */
function coveringState(emitted: readonly Op[], path: string): 'hidden' | 'visible' {
  for (let index = emitted.length - 1; index >= 0; index -= 1) {
    const op = emitted[index];
    if (op === undefined || !isWithin(op.path, path)) continue;
    return op.kind === 'hide-dir' || op.kind === 'hide-file' ? 'hidden' : 'visible';
  }
  return 'visible';
}

function depth(path: string): number {
  return path.split('/').filter((segment) => segment !== '').length;
}
