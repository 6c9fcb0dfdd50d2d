import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** As the kernel's limit (MAXSYMLINKS): more symlinks than this in one lookup is a loop. */
const MAX_SYMLINKS = 40;

/**
 * Where `rawPath` (relative to `base`) really leads: every existing component is followed the way the
 * kernel follows it — symlinks (dangling ones too: writing through them creates their target) and `..`
 * taken after the symlink before it — and the part that does not exist yet is appended lexically.
 * Throws on a symlink loop or a component that cannot be inspected (the caller blocks).
 */
export function resolveRealPath(rawPath: string, base: string): string {
  const absolute = isAbsolute(rawPath) ? rawPath : `${base}/${rawPath}`;
  return walk(absolute, { symlinks: 0 });
}

function walk(absolute: string, budget: { symlinks: number }): string {
  const parts = absolute.split('/').filter((part) => part !== '' && part !== '.');
  let current = '/';
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    let isSymlink: boolean;
    try {
      isSymlink = lstatSync(next).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return resolve(current, ...parts.slice(index));
      throw error;
    }
    if (!isSymlink) {
      current = next;
      continue;
    }
    budget.symlinks += 1;
    if (budget.symlinks > MAX_SYMLINKS) throw new Error(`too many symbolic links resolving '${absolute}'`);
    const target = readlinkSync(next);
    current = walk(isAbsolute(target) ? target : `${current}/${target}`, budget);
  }
  return current;
}
