import { DYNAMIC_MARK } from './command-word.ts';
import type { CommandWord } from './types.ts';

/**
 * Directories and files whose contents other tools later *execute*: git hooks and config (core.fsmonitor,
 * aliases, hooksPath), package-manager rc files (script-shell, yarnPath), shell rc files, ssh config
 * (ProxyCommand), Claude Code settings (hooks) and Flotilla's own config. Writing them from Bash is how a
 * blocked command is smuggled into a later, allowed one (`git commit` running `.git/hooks/pre-commit`).
 */
export const PROTECTED_PATH_SEGMENTS: readonly string[] = ['.git', '.ssh', '.gnupg', '.claude', '.flotilla'];
export const PROTECTED_FILE_NAMES: readonly string[] = [
  '.gitconfig',
  '.git-credentials',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.envrc',
];

const PROTECTED_NAMES = [...PROTECTED_PATH_SEGMENTS, ...PROTECTED_FILE_NAMES];

/**
 * True when one path segment is a protected name, in any case: macOS and Windows file systems fold case, so
 * `.GIT/hooks` and `.Claude/settings.json` reach the same files there.
 */
export function isProtectedName(segment: string): boolean {
  return PROTECTED_NAMES.includes(segment.toLowerCase());
}

/**
 * The protected name a relative path names (a protected segment, or `.config/git`), in any case; null when
 * none. Shared by the path guard and the patch check.
 */
export function findProtectedName(path: string): string | null {
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    if (isProtectedName(segment)) return segment;
    if (segment.toLowerCase() === '.config' && segments[i + 1]?.toLowerCase() === 'git') {
      return `${segment}/${segments[i + 1]}`;
    }
  }
  return null;
}

/**
 * Returns why writing to `word` is refused, or null when it is fine. A target computed at run time is
 * refused because it could name any of the protected paths. Globs are refused when they could match one.
 */
export function findProtectedWriteTarget(word: CommandWord): string | null {
  if (word.dynamic || word.value.includes(DYNAMIC_MARK)) return 'its path is computed at run time';
  const path = word.value;
  if (path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr') return null;
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    if (word.glob ? globSegmentMayMatchProtected(segment) : isProtectedName(segment)) {
      return `'${path}' is a protected path`;
    }
    const isConfig = word.glob
      ? !/^[*?]/.test(segment) && globMayMatch(segment, '.config')
      : segment.toLowerCase() === '.config';
    if (isConfig && segments[i + 1] !== undefined) {
      const next = segments[i + 1]!;
      if (next.toLowerCase() === 'git' || (word.glob && globMayMatch(next, 'git'))) {
        return `'${path}' is a protected path`;
      }
    }
  }
  return null;
}

/** True when any `=`-separated tail of an argument (`--output=.git/x`) or the argument itself is protected. */
export function findProtectedPathInArgument(word: CommandWord): string | null {
  if (word.dynamic) return findProtectedWriteTarget(word);
  const direct = findProtectedWriteTarget(word);
  if (direct) return direct;
  const equals = word.value.indexOf('=');
  if (equals === -1) return null;
  return findProtectedWriteTarget({ ...word, value: word.value.slice(equals + 1) });
}

function globSegmentMayMatchProtected(segment: string): boolean {
  // Without dotglob a leading `*` or `?` never matches a dot file; a bracket expression might.
  if (segment.startsWith('*') || segment.startsWith('?')) return false;
  return PROTECTED_NAMES.some((name) => globMayMatch(segment, name));
}

function globMayMatch(globSegment: string, name: string): boolean {
  let source = '^';
  for (let i = 0; i < globSegment.length; i += 1) {
    const ch = globSegment[i]!;
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else if (ch === '[') {
      const close = globSegment.indexOf(']', i + 2);
      if (close === -1) source += '\\[';
      else {
        let body = globSegment.slice(i + 1, close);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        source += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`${source}$`, 'i').test(name);
  } catch {
    return true;
  }
}
