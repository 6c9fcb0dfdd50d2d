import { DYNAMIC_MARK } from './command-word.ts';
import { type BashPathPlace, judgeRealPath } from './judge-real-path.ts';
import { isProtectedName, PROTECTED_FILE_NAMES, PROTECTED_PATH_SEGMENTS } from './protected-names.ts';
import type { CommandWord } from './types.ts';

export {
  findProtectedName,
  isProtectedName,
  PROTECTED_FILE_NAMES,
  PROTECTED_PATH_SEGMENTS,
} from './protected-names.ts';

const PROTECTED_NAMES = [...PROTECTED_PATH_SEGMENTS, ...PROTECTED_FILE_NAMES];

/**
 * Returns why writing to `word` is refused, or null when it is fine. A target computed at run time is
 * refused because it could name any of the protected paths. Globs are refused when they could match one.
 * With a `place`, the path is also followed through symlinks as the kernel would (judge-real-path.ts): a
 * harmless-looking `lnk/pre-commit` whose `lnk` leads into `.git/hooks` is refused; a glob is judged by its
 * static prefix.
 */
export function findProtectedWriteTarget(word: CommandWord, place?: BashPathPlace | null): string | null {
  if (word.dynamic || word.value.includes(DYNAMIC_MARK)) return 'its path is computed at run time';
  const path = word.value;
  if (path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr') return null;
  const textual = findProtectedText(word);
  if (textual !== null || !place) return textual;
  return judgeRealPath(word.glob ? staticPrefixOf(path) : path, place);
}

/** The segments of a glob before the first one with a glob character (`src/*.ts` → `src`; `*` → `.`). */
function staticPrefixOf(glob: string): string {
  const segments = glob.split('/');
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  const prefix = segments.slice(0, first === -1 ? segments.length : first).join('/');
  return prefix === '' ? (glob.startsWith('/') ? '/' : '.') : prefix;
}

function findProtectedText(word: CommandWord): string | null {
  const path = word.value;
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
export function findProtectedPathInArgument(word: CommandWord, place?: BashPathPlace | null): string | null {
  if (word.dynamic) return findProtectedWriteTarget(word, place);
  const direct = findProtectedWriteTarget(word, place);
  if (direct) return direct;
  const equals = word.value.indexOf('=');
  if (equals === -1) return null;
  return findProtectedWriteTarget({ ...word, value: word.value.slice(equals + 1) }, place);
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
