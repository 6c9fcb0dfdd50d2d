import { chmod, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { runGit } from '../../process/run-command.ts';

/** One file git runs or obeys: its bytes and mode, or null when it did not exist. */
interface ControlFile {
  content: Buffer;
  mode: number;
}

export interface GitControlSnapshot {
  /** Absolute path → the file as it was. */
  readonly files: ReadonlyMap<string, ControlFile | null>;
  /** The directories whose every file is covered (hooks/, info/), for files added later. */
  readonly directories: readonly string[];
}

/**
 * The files through which a process with write access could make git run its code or point it elsewhere:
 * the repository's `config`, `hooks/` and `info/`, the worktree's own git directory `config.worktree`, and
 * the worktree's `.git` file. A CLI agent has no hooks stopping it from writing them, so the runtime takes
 * this snapshot before the run and compares (and restores) after.
 */
export async function snapshotGitControlFiles(worktreePath: string): Promise<GitControlSnapshot> {
  const { commonDir, gitDir } =
    (await readLinkedWorktreeGitDirs(worktreePath)) ?? (await askGitForGitDirs(worktreePath));
  const directories = [join(commonDir, 'hooks'), join(commonDir, 'info')];
  const paths = [
    join(commonDir, 'config'),
    join(gitDir, 'config.worktree'),
    join(worktreePath, '.git'),
    ...(await Promise.all(directories.map(listFiles))).flat(),
  ];
  const read = await Promise.all(paths.map(async (path) => [path, await readControlFile(path)] as const));
  return { files: new Map(read), directories };
}

/**
 * A linked worktree's git directories read the way git finds them — its `.git` file names its own git
 * directory, whose `commondir` file names the repository's — without starting git (the snapshot is taken
 * before the agent runs, so the files are the ones `git worktree add` wrote). Null for anything else (a
 * `.git` directory, unexpected content): git is asked then.
 */
async function readLinkedWorktreeGitDirs(
  worktreePath: string,
): Promise<{ commonDir: string; gitDir: string } | null> {
  try {
    const pointer = /^gitdir: (.+)$/.exec((await readFile(join(worktreePath, '.git'), 'utf8')).trim());
    if (pointer?.[1] === undefined) return null;
    const gitDir = resolve(worktreePath, pointer[1]);
    const common = (await readFile(join(gitDir, 'commondir'), 'utf8')).trim();
    if (common === '' || common.includes('\n')) return null;
    return { commonDir: resolve(gitDir, common), gitDir };
  } catch {
    return null;
  }
}

async function askGitForGitDirs(worktreePath: string): Promise<{ commonDir: string; gitDir: string }> {
  // One git call for both directories (one line each, in the order asked).
  const { stdout } = await runGit(['rev-parse', '--git-common-dir', '--git-dir'], { cwd: worktreePath });
  const [commonDir, gitDir] = stdout
    .trim()
    .split('\n')
    .map((path) => (isAbsolute(path) ? path : resolve(worktreePath, path)));
  if (commonDir === undefined || gitDir === undefined)
    throw new Error(`git rev-parse gave no git directories for ${worktreePath}`);
  return { commonDir, gitDir };
}

/**
 * The paths that differ from the snapshot (changed, added under a covered directory, removed), each put
 * back as it was. Returns the changed paths; empty when nothing changed.
 */
export async function restoreGitControlFiles(snapshot: GitControlSnapshot): Promise<string[]> {
  const changed: string[] = [];
  const current = new Set((await Promise.all(snapshot.directories.map(listFiles))).flat());
  for (const path of current) {
    if (!snapshot.files.has(path)) {
      changed.push(path);
      await rm(path, { force: true, recursive: true });
    }
  }
  const now = await Promise.all([...snapshot.files.keys()].map(readControlFile));
  for (const [index, [path, before]] of [...snapshot.files].entries()) {
    if (sameFile(before, now[index] ?? null)) continue;
    changed.push(path);
    if (before === null) {
      await rm(path, { force: true, recursive: true });
    } else {
      await rm(path, { force: true, recursive: true });
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, before.content);
      await chmod(path, before.mode);
    }
  }
  return changed.sort();
}

function sameFile(a: ControlFile | null, b: ControlFile | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mode === b.mode && a.content.equals(b.content);
}

/** A regular file's bytes and mode; anything else that exists there (a symlink, a directory) is a change. */
async function readControlFile(path: string): Promise<ControlFile | null> {
  try {
    const stats = await lstat(path);
    if (!stats.isFile())
      return { content: Buffer.from(`<not a regular file: mode ${stats.mode}>`), mode: -1 };
    return { content: await readFile(path), mode: stats.mode & 0o7777 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Every entry below `dir` that is not a directory (symlinks included); [] when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => !entry.isDirectory()).map((entry) => join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
