import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, sep } from 'node:path';
import { findOnPath } from './find-on-path.ts';
import { isWithin } from './is-within.ts';

/**
 * The directory a program is installed in, from its real path: the package of a `node_modules` binary
 * (`…/node_modules/@scope/name`), the prefix of a `bin/` binary (`~/.nvm/versions/node/v20` for its
 * `bin/node`, which holds its `lib/node_modules` too), otherwise the directory holding it.
 */
export function installPrefixOf(realPath: string): string {
  const parts = realPath.split(sep);
  const modules = parts.lastIndexOf('node_modules');
  if (modules !== -1 && modules + 1 < parts.length - 1) {
    const scoped = parts[modules + 1]?.startsWith('@') === true;
    const end = modules + (scoped ? 3 : 2);
    if (end < parts.length) return parts.slice(0, end).join(sep);
  }
  const dir = dirname(realPath);
  const name = basename(dir);
  return name === 'bin' || name === 'sbin' ? dirname(dir) : dir;
}

/**
 * The directories to make readable so `programs` run in a sandbox that hides `hiddenRoots` (home
 * directories): each program's install prefix, and the directory of the name it is called by when that is a
 * symlink. A directory that would re-expose a hidden root as a whole (`~/bin/tool` has prefix `~`) narrows to
 * the program's own directory, or the file. A program found neither as an absolute path nor on `pathEnv`
 * throws: the sandbox would not run it.
 */
export function resolveProgramDirs(
  programs: readonly string[],
  pathEnv: string,
  hiddenRoots: readonly string[],
): string[] {
  const dirs = new Set<string>();
  const narrow = (candidates: readonly string[]) => {
    const safe = candidates.find((candidate) => !hiddenRoots.some((root) => isWithin(candidate, root)));
    if (safe !== undefined) dirs.add(safe);
  };
  for (const program of programs) {
    const path = locate(program, pathEnv);
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new Error(`sandbox: program "${program}" does not exist (${path})`);
    }
    narrow([installPrefixOf(real), dirname(real), real]);
    if (real !== path) narrow([dirname(path), path]);
  }
  return [...dirs];
}

function locate(program: string, pathEnv: string): string {
  if (program.includes(sep)) {
    if (!isAbsolute(program)) {
      throw new Error(`sandbox: program "${program}" must be an absolute path or a name found on PATH`);
    }
    return program;
  }
  const found = findOnPath(program, pathEnv);
  if (found === undefined) {
    throw new Error(`sandbox: program "${program}" is not on the sandboxed process's PATH (${pathEnv})`);
  }
  return found;
}
