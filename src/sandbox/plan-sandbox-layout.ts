import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { BwrapLayout } from './build-bwrap-args.ts';
import { SANDBOX_SOCKET_DIR } from './create-network-bridge.ts';
import { isWithin } from './is-within.ts';
import type { SandboxGitDir } from './prepare-sandbox-git-dir.ts';
import { resolveProgramDirs } from './resolve-program-dirs.ts';
import type { SandboxRequest, SandboxSettings } from './sandbox-types.ts';

/** Home directories, hidden whole: Flotilla's `$HOME` is added to these. */
export const HIDDEN_HOME_ROOTS: readonly string[] = ['/root', '/home'];
/** Secrets outside home directories (readable by root, which Flotilla may be). */
export const HIDDEN_SYSTEM_DIRS: readonly string[] = ['/etc/ssl/private'];
export const HIDDEN_SYSTEM_FILES: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
];
/** Inside the repository: Flotilla's state (database, run state) and the other agents' worktrees. */
export const HIDDEN_REPO_DIRS: readonly string[] = ['.flotilla', '.worktrees'];

export interface LayoutParams {
  request: SandboxRequest;
  settings: SandboxSettings;
  /** Flotilla's own home directory, hidden whole. */
  homeDir: string;
  /** What bwrap runs (the command, or the forwarder in front of it). */
  command: readonly string[];
  /** Programs to make runnable besides the request's (the forwarder's node). */
  extraPrograms: readonly string[];
  git?: SandboxGitDir;
  /** The network bridge's socket directory, outside. */
  socketDir?: string;
  /** A directory to create in the private /tmp (the sandbox home). */
  createDir?: string;
}

/**
 * Decides what the sandbox hides, re-exposes and lets write, from the request and the file system as it is
 * (real paths, so a symlink cannot point a mount elsewhere; missing optional paths skipped). Refuses, naming
 * the path, a request that would make the repository's `.git` or a home directory writable.
 */
export function planSandboxLayout(params: LayoutParams): BwrapLayout {
  const { request, settings } = params;
  const repoRoot = realDir(request.repoRoot, 'repoRoot');
  const repoGit = join(repoRoot, '.git');
  const hiddenRoots = existingReal([params.homeDir, ...HIDDEN_HOME_ROOTS]).filter((path) => path !== '/');

  const writable = request.writable.map((path) => realDir(path, 'writable'));
  if (params.git !== undefined) writable.push(realDir(params.git.gitDir, 'gitWorktree.gitStateDir'));
  for (const path of writable) {
    if (isWithin(path, repoRoot) || isWithin(repoGit, path)) {
      throw new Error(
        `sandbox: writable directory ${path} would make the repository's .git (${repoGit}) writable; give the agent's worktree instead`,
      );
    }
    const home = hiddenRoots.find((root) => isWithin(path, root));
    if (home !== undefined) {
      throw new Error(`sandbox: writable directory ${path} would expose the home directory ${home}`);
    }
  }
  const cwd = realDir(request.cwd, 'cwd');

  const denied = existingReal(absolute(settings.denyRead, 'sandbox.denyRead'));
  const hiddenDirs = [
    ...hiddenRoots,
    ...existingReal(HIDDEN_SYSTEM_DIRS),
    ...existingReal(HIDDEN_REPO_DIRS.map((name) => join(repoRoot, name))),
    ...denied.filter(isDirectory),
  ];
  const hiddenFiles = [
    ...existingReal([...HIDDEN_SYSTEM_FILES, ...sshHostKeys()]),
    ...denied.filter((p) => !isDirectory(p)),
  ];
  const programDirs = resolveProgramDirs(
    [...request.programs, ...params.extraPrograms],
    request.env.PATH ?? '',
    hiddenRoots,
  );
  const readable = [
    repoRoot,
    ...(request.readable ?? []).map((path) => realDir(path, 'readable')),
    ...programDirs,
    ...existingReal(absolute(settings.allowRead, 'sandbox.allowRead')),
  ];

  const readOnlyBinds: { source: string; target: string }[] = [];
  const gitWorktree =
    request.gitWorktree === undefined
      ? undefined
      : realDir(request.gitWorktree.worktree, 'gitWorktree.worktree');
  if (gitWorktree !== undefined) {
    if (!writable.includes(gitWorktree)) {
      throw new Error(`sandbox: gitWorktree.worktree ${gitWorktree} must be one of the writable directories`);
    }
    if (params.git === undefined) throw new Error('sandbox: gitWorktree given without its git directory');
    readOnlyBinds.push({ source: params.git.dotGitFile, target: join(gitWorktree, '.git') });
  }
  // A writable checkout's own `.git` stays read-only: an agent that rewrote a worktree's `.git` file could
  // point Flotilla's later git commands (patch extraction, outside the sandbox) at another repository.
  for (const dir of writable) {
    if (dir === gitWorktree) continue;
    const dotGit = join(dir, '.git');
    const kind = kindOf(dotGit);
    if (kind === 'missing') continue;
    if (kind === 'symlink')
      throw new Error(
        `sandbox: ${dotGit} is a symlink; refusing to sandbox a worktree whose .git points elsewhere`,
      );
    readOnlyBinds.push({ source: dotGit, target: dotGit });
  }
  if (params.socketDir !== undefined)
    readOnlyBinds.push({ source: params.socketDir, target: SANDBOX_SOCKET_DIR });

  return {
    hiddenDirs,
    hiddenFiles,
    readable,
    writable,
    readOnlyBinds,
    ...(params.createDir !== undefined && { createDir: params.createDir }),
    cwd,
    command: params.command,
  };
}

function realDir(path: string, field: string): string {
  if (!isAbsolute(path)) throw new Error(`sandbox: ${field} must be an absolute path, got "${path}"`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new Error(`sandbox: ${field} ${path} does not exist`);
  }
  if (!isDirectory(real)) throw new Error(`sandbox: ${field} ${path} is not a directory`);
  return real;
}

function absolute(paths: readonly string[], field: string): readonly string[] {
  for (const path of paths) {
    if (!isAbsolute(path)) throw new Error(`${field}: "${path}" must be an absolute path`);
  }
  return paths;
}

/** The real paths of those that exist; a missing one has nothing to hide or show. */
function existingReal(paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of paths) {
    try {
      found.push(realpathSync(path));
    } catch {
      // missing
    }
  }
  return found;
}

function sshHostKeys(): string[] {
  try {
    return readdirSync('/etc/ssh')
      .filter((name) => /^ssh_host_.*_key$/.test(name))
      .map((name) => join('/etc/ssh', name));
  } catch {
    return [];
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function kindOf(path: string): 'missing' | 'symlink' | 'present' {
  try {
    return lstatSync(path).isSymbolicLink() ? 'symlink' : 'present';
  } catch {
    return 'missing';
  }
}
