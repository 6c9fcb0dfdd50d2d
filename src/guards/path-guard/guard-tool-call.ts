import { isAbsolute, resolve } from 'node:path';
import { messageOf } from '../../shared/message-of.ts';
import { decidePathAccess } from './decide-path-access.ts';
import { extractToolPaths } from './extract-tool-paths.ts';
import { resolveRealPath } from './resolve-real-path.ts';
import type { PathGuardScope, PathGuardVerdict, ToolPathTarget } from './types.ts';

export interface ToolCallPlace {
  scope: PathGuardScope;
  /** The session's working directory (the worktree, or the repository for planner and reviewer). */
  sessionCwd: string;
  /** The `cwd` the SDK reports in the hook input, when it gave one. */
  hookCwd?: unknown;
}

const ALLOWED: PathGuardVerdict = { allowed: true };

/**
 * Decides one tool call: null for a tool the guard does not check, otherwise allowed or blocked with a
 * reason. Never throws — an internal error is a block (fail closed).
 *
 * A relative path is resolved against the hook's cwd and against the session's cwd, and each of those both
 * as the kernel would follow it (symlinks, then `..`) and as a lexical `path.resolve` would fold it first:
 * every one of these readings must be allowed, so the guard and the tool cannot disagree about the target.
 */
export function guardToolCall(
  toolName: string,
  toolInput: Record<string, unknown>,
  place: ToolCallPlace,
): PathGuardVerdict | null {
  try {
    const extraction = extractToolPaths(toolName, toolInput);
    if (extraction === null) return null;
    if ('error' in extraction) return { allowed: false, reason: `Blocked: ${extraction.error}` };
    const bases = [place.sessionCwd];
    if (
      typeof place.hookCwd === 'string' &&
      isAbsolute(place.hookCwd) &&
      place.hookCwd !== place.sessionCwd
    ) {
      bases.unshift(place.hookCwd);
    }
    for (const target of extraction.targets) {
      const reason = checkTarget(toolName, target, bases, place.scope);
      if (reason !== null) return { allowed: false, reason };
    }
    return ALLOWED;
  } catch (error) {
    const detail = messageOf(error);
    return { allowed: false, reason: `Blocked: internal path guard error (${detail})` };
  }
}

function checkTarget(
  toolName: string,
  target: ToolPathTarget,
  bases: readonly string[],
  scope: PathGuardScope,
): string | null {
  // An omitted (or, for a search directory, empty) path means the tool's default: the current directory.
  const raw =
    target.path === undefined || (target.path === '' && target.field === 'path') ? '.' : target.path;
  const quoted = target.quoted ?? target.path;
  const shown = quoted === undefined ? 'the current directory' : `'${quoted}'`;
  const refuse = (why: string, real?: string) => {
    const really = real === undefined || real === quoted ? '' : ` (really '${real}')`;
    return `Blocked: ${toolName} may not use ${target.field} ${shown}${really}: ${why}`;
  };
  if (raw === '') return refuse('the path is empty');
  if (raw.includes('\0')) return refuse('the path contains a NUL character');
  if (raw.startsWith('~'))
    return refuse("paths starting with '~' are not allowed (use a path in the worktree)");
  for (const base of bases) {
    const readings = new Set([resolveRealPath(raw, base), resolveRealPath(resolve(base, raw), base)]);
    for (const real of readings) {
      const why = decidePathAccess(real, target.access, scope);
      if (why !== null) return refuse(why, real);
    }
  }
  return null;
}
