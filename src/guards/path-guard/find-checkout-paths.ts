import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/** Flotilla's own directories in the main checkout (the worktree manager's `.worktrees`, the state dir). */
export const FLOTILLA_CHECKOUT_DIRS = ['.flotilla', '.worktrees'] as const;

export interface CheckoutPaths {
  /** The top of the working tree `cwd` is in (the directory holding its `.git`); `cwd` when there is none. */
  workTree: string;
  /** The repository's main checkout, whichever of its worktrees `cwd` is in; null outside a repository. */
  mainCheckout: string | null;
  /** Flotilla's directories in the main checkout, which an interactive session may not reach. */
  deniedPaths: string[];
}

/**
 * Where `cwd` sits in its repository, read from the `.git` entries as git does (no git process): the working
 * tree's top, the main checkout and Flotilla's directories there. From a linked worktree (`.git` is a file
 * naming `gitdir: <common>/worktrees/<name>`), the main checkout is the parent of the common git directory.
 * Throws when `cwd` does not exist or a `.git` file cannot be read (the caller blocks).
 */
export function findCheckoutPaths(cwd: string): CheckoutPaths {
  const start = realpathSync(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    let isDirectory: boolean | null = null;
    try {
      isDirectory = statSync(dotGit).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (isDirectory !== null) {
      const mainCheckout = isDirectory ? dir : mainCheckoutOf(dotGit);
      return {
        workTree: dir,
        mainCheckout,
        deniedPaths: FLOTILLA_CHECKOUT_DIRS.map((name) => join(mainCheckout, name)),
      };
    }
    if (dir === '/') return { workTree: start, mainCheckout: null, deniedPaths: [] };
  }
}

function mainCheckoutOf(dotGitFile: string): string {
  const text = readFileSync(dotGitFile, 'utf8');
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) throw new Error(`'${dotGitFile}' is neither a directory nor a 'gitdir:' file`);
  const gitDir = resolve(dirname(dotGitFile), match[1]!.trim());
  let common = gitDir;
  try {
    const named = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    if (named !== '') common = isAbsolute(named) ? named : resolve(gitDir, named);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // A bare repository's worktrees have no main checkout: deny next to the git dir, which is where it would be.
  return basename(common) === '.git' ? dirname(common) : common;
}
