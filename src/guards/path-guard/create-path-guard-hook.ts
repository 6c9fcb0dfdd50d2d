import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { messageOf } from '../../shared/message-of.ts';
import type { PreToolUseHookInput, PreToolUseHookOutput } from '../bash-validator/index.ts';
import { extractToolPaths } from './extract-tool-paths.ts';
import { guardToolCall } from './guard-tool-call.ts';
import { resolveRealPath } from './resolve-real-path.ts';
import { isToolAllowed } from './tool-allow-lists.ts';
import type { PathGuardScope } from './types.ts';

export interface PathGuardOptions {
  /** The session's working tree (implementor: its worktree; planner, reviewer: the repository). */
  root: string;
  /** May the agent write inside `root`? */
  writable: boolean;
  /** Absolute paths agents may read too (config `pathGuard.readOnlyPaths`, already made absolute). */
  readOnlyPaths?: readonly string[];
  /** Absolute paths agents may never reach (other worktrees, Flotilla's state); `root` and read-only paths inside one are carved out. */
  deniedPaths?: readonly string[];
  /** The session's cwd for relative paths; default `root`. */
  cwd?: string;
  /**
   * The tools the session may call (exact names, or prefixes ending in `*`); any other is refused. Agent
   * sessions: `AGENT_SESSION_TOOLS`. Absent: every tool may be called (its paths are still checked).
   */
  allowedTools?: readonly string[];
}

export type PathGuardHook = (input: PreToolUseHookInput) => Promise<PreToolUseHookOutput>;

const ALLOW: Record<string, never> = {};

/**
 * Canonical scope for `options`: symlinks resolved everywhere, plus the git directories a worktree's `.git`
 * file points to (its `gitdir` and the repository's common dir), which need not be named `.git`.
 * Throws when the root does not exist.
 */
export function buildPathGuardScope(options: PathGuardOptions): PathGuardScope {
  const root = realpathSync(options.root);
  if (!statSync(root).isDirectory()) throw new Error(`path guard root '${options.root}' is not a directory`);
  const canonical = (path: string) => resolveRealPath(path, root);
  return {
    root,
    writable: options.writable,
    readOnlyPaths: (options.readOnlyPaths ?? []).map(canonical),
    deniedPaths: [...(options.deniedPaths ?? []), ...findGitDirs(root)].map(canonical),
  };
}

/** `gitdir:` of a worktree's `.git` file and the `commondir` inside it; none for a plain `.git` directory. */
function findGitDirs(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(`${root}/.git`, 'utf8');
  } catch {
    return []; // no .git, or a directory: the `.git` component rule covers it
  }
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) return [];
  const gitDir = resolve(root, match[1]!.trim());
  const dirs = [gitDir];
  try {
    const common = readFileSync(`${gitDir}/commondir`, 'utf8').trim();
    if (common !== '') dirs.push(isAbsolute(common) ? common : resolve(gitDir, common));
  } catch {
    // Not a linked worktree's git dir: nothing more to deny.
  }
  return dirs;
}

/** Why a tool off the allow-list is refused; the tool name is the agent's, so it is quoted as JSON. */
function describeUnknownTool(toolName: string): string {
  return `the tool ${JSON.stringify(toolName.slice(0, 200))} is not one this session may use (only the tools Flotilla gives its agents are allowed)`;
}

/**
 * A PreToolUse hook for the file tools (Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep) and any tool
 * whose input carries path-like fields: it answers `{ decision: 'block', reason }` or `{}` and never throws
 * or returns undefined — the SDK would RUN the tool (docs/claude-sdk-facts.md §Hooks). With `allowedTools`, a
 * tool off the list is refused first. If the scope cannot be built (root gone), every call with a path is
 * blocked.
 */
export function createPathGuardHook(options: PathGuardOptions): PathGuardHook {
  let scope: PathGuardScope | null = null;
  let scopeError: string | null = null;
  try {
    scope = buildPathGuardScope(options);
  } catch (error) {
    scopeError = messageOf(error);
  }
  const sessionCwd = options.cwd ?? scope?.root ?? options.root;
  return async (input): Promise<PreToolUseHookOutput> => {
    try {
      if (input === null || typeof input !== 'object' || typeof input.tool_name !== 'string') {
        return { decision: 'block', reason: 'Blocked: malformed PreToolUse hook input' };
      }
      const toolInput = input.tool_input;
      if (toolInput === null || typeof toolInput !== 'object') {
        return { decision: 'block', reason: `Blocked: ${input.tool_name} tool input is not an object` };
      }
      if (options.allowedTools !== undefined && !isToolAllowed(input.tool_name, options.allowedTools)) {
        return { decision: 'block', reason: `Blocked: ${describeUnknownTool(input.tool_name)}` };
      }
      if (scope === null) {
        if (extractToolPaths(input.tool_name, toolInput as Record<string, unknown>) === null) return ALLOW;
        return { decision: 'block', reason: `Blocked: the path guard has no scope (${scopeError})` };
      }
      const verdict = guardToolCall(input.tool_name, toolInput, { scope, sessionCwd, hookCwd: input.cwd });
      return verdict === null || verdict.allowed ? ALLOW : { decision: 'block', reason: verdict.reason };
    } catch (error) {
      const detail = messageOf(error);
      return { decision: 'block', reason: `Blocked: internal path guard error (${detail})` };
    }
  };
}
