import { relative } from 'node:path';
import { findProtectedName } from '../bash-validator/protected-paths.ts';
import type { PathAccess, PathGuardScope } from './types.ts';

/** True when `path` is `parent` or below it (both absolute and normalised). */
export function isWithin(path: string, parent: string): boolean {
  if (path === parent) return true;
  return path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/**
 * Why `realPath` (absolute, symlinks already resolved) may not be accessed, or null when it may. Pure.
 * Order: any `.git` component (any case) → a denied path, unless the path is granted by an area lying inside
 * that denied path (the implementor's worktree inside `.worktrees/`, its own run directory inside
 * `.flotilla/`) → inside the root (writes only when the scope is writable and the path is not one whose
 * contents tools later run) → a read-only path (reads only) → everything else is outside.
 */
export function decidePathAccess(realPath: string, access: PathAccess, scope: PathGuardScope): string | null {
  if (realPath.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    return 'it is inside a .git directory (git hooks and config run code)';
  }
  const inRoot = isWithin(realPath, scope.root);
  // The areas that grant this access to this path; one that lies inside a denied path is carved out of it.
  const grants = [
    ...(inRoot ? [scope.root] : []),
    ...(access === 'read' ? scope.readOnlyPaths.filter((allowed) => isWithin(realPath, allowed)) : []),
  ];
  for (const denied of scope.deniedPaths) {
    if (isWithin(realPath, denied) && !grants.some((grant) => isWithin(grant, denied))) {
      return `it is inside '${denied}', which agents may not reach (another worktree or Flotilla's state)`;
    }
  }
  if (inRoot) {
    if (access === 'read') return null;
    if (!scope.writable) return 'this agent may not write files (its role is read-only)';
    const named = findProtectedName(relative(scope.root, realPath));
    if (named !== null) {
      return `'${named}' is a protected path (tools run what it contains; the bash validator refuses it too)`;
    }
    return null;
  }
  if (grants.length > 0) return null;
  return access === 'read'
    ? `it is outside the worktree '${scope.root}' and the read-only paths`
    : `it is outside the worktree '${scope.root}'`;
}
