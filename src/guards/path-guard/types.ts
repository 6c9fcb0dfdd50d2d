/** Whether a tool call reads files or writes them. */
export type PathAccess = 'read' | 'write';

/**
 * Where one agent session may go. Every path is absolute and already canonical (symlinks resolved): build it
 * with `buildPathGuardScope`.
 */
export interface PathGuardScope {
  /** The session's working tree: readable, and writable when `writable` (the implementor's worktree). */
  root: string;
  /** False for roles that must not write files (planner, reviewer: their cwd is the user's checkout). */
  writable: boolean;
  /** Readable in addition to `root` (config `pathGuard.readOnlyPaths`). Never writable. */
  readOnlyPaths: readonly string[];
  /**
   * Never reachable, even inside `readOnlyPaths`: other worktrees, Flotilla's state, git directories that
   * are not named `.git`. A denied path that contains `root` or a read-only path is carved around it.
   */
  deniedPaths: readonly string[];
}

/** One path a tool call touches. `path` undefined means the tool's default directory (the session cwd). */
export interface ToolPathTarget {
  /** Input field the path came from (`file_path`, `path`, `pattern`), for messages. */
  field: string;
  path: string | undefined;
  access: PathAccess;
  /** What messages quote when it is not `path` itself (a Glob pattern, of which `path` is the static prefix). */
  quoted?: string;
}

export type PathGuardVerdict = { allowed: true } | { allowed: false; reason: string };
