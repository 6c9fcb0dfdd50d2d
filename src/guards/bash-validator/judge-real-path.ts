import { tmpdir } from 'node:os';
import { isAbsolute, relative } from 'node:path';
import { messageOf } from '../../shared/message-of.ts';
import { resolveRealPath } from '../path-guard/resolve-real-path.ts';
import { findProtectedName } from './protected-names.ts';

/**
 * Where the command runs, for judging paths as the kernel will see them. Without it (the `bash-check`
 * command, tests of the rules) the validator judges text only.
 */
export interface BashPathPlace {
  /** The command's working directory (absolute); relative paths start here. */
  cwd: string;
  /** The working tree the agent may write in (absolute, canonical). */
  root: string;
  /** Never writable even where `root` or a temporary directory would allow it (other worktrees, state). */
  deniedPaths: readonly string[];
  /** The command changes directory (`cd`, `pushd`, `popd`): relative paths cannot be placed. */
  cwdMayChange: boolean;
}

/** Outside the root, writes may go only to the temporary directories (a sandbox makes them private). */
const TEMPORARY_DIRS = [...new Set(['/tmp', tmpdir()])];
/** Device files a command may write to wherever it runs. */
const WRITABLE_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

const within = (path: string, parent: string) =>
  path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/**
 * Why writing `path` (a static word) from `place` is refused once symlinks are followed as the kernel
 * follows them, or null. Refused: a real path inside a `.git` directory (any case) or on a protected path,
 * in a denied path, or outside both the root and the temporary directories. Resolution errors other than
 * "does not exist yet" (a symlink loop, a directory it may not search) refuse too; a path that does not
 * exist yet is judged by its existing parent, with the rest appended.
 */
export function judgeRealPath(path: string, place: BashPathPlace): string | null {
  if (WRITABLE_DEVICES.test(path)) return null;
  if (path.startsWith('~')) return `'${path}' is in a home directory, outside the worktree`;
  if (!isAbsolute(path) && place.cwdMayChange) {
    return `'${path}' is relative and the command changes directory, so where it lands cannot be checked`;
  }
  let real: string;
  try {
    real = resolveRealPath(path, place.cwd);
  } catch (error) {
    return `'${path}' cannot be resolved (${messageOf(error)})`;
  }
  const really = real === path ? '' : ` (really '${real}')`;
  if (real.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    return `'${path}'${really} is inside a .git directory`;
  }
  const inRoot = within(real, place.root);
  const named = findProtectedName(inRoot ? relative(place.root, real) : real);
  if (named !== null) return `'${path}'${really} is a protected path (${named})`;
  const denied = place.deniedPaths.find((dir) => within(real, dir) && !(inRoot && within(place.root, dir)));
  if (denied !== undefined) return `'${path}'${really} is inside '${denied}', which agents may not reach`;
  if (inRoot || TEMPORARY_DIRS.some((dir) => within(real, dir))) return null;
  return `'${path}'${really} is outside the worktree '${place.root}'`;
}
