import { sep } from 'node:path';

/** Whether `path` is `parent` or lies under it (both absolute and normalized). */
export function isWithin(parent: string, path: string): boolean {
  if (parent === sep) return true;
  return path === parent || path.startsWith(parent.endsWith(sep) ? parent : `${parent}${sep}`);
}
