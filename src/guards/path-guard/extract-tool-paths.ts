import type { PathAccess, ToolPathTarget } from './types.ts';

/** The file tools the guard knows, with the input field holding the path and the access it needs. */
const SINGLE_PATH_TOOLS: Readonly<Record<string, { field: string; access: PathAccess; optional: boolean }>> =
  {
    Read: { field: 'file_path', access: 'read', optional: false },
    Write: { field: 'file_path', access: 'write', optional: false },
    Edit: { field: 'file_path', access: 'write', optional: false },
    MultiEdit: { field: 'file_path', access: 'write', optional: false },
    NotebookEdit: { field: 'notebook_path', access: 'write', optional: false },
    // Older CLI versions' read-only tools, in case a pinned CLI still offers them.
    NotebookRead: { field: 'notebook_path', access: 'read', optional: false },
    LS: { field: 'path', access: 'read', optional: false },
    Grep: { field: 'path', access: 'read', optional: true },
  };

/** The tool names the guard checks; the SDK hook's matcher is built from them. */
export const GUARDED_TOOLS: readonly string[] = [...Object.keys(SINGLE_PATH_TOOLS), 'Glob'];

export type ToolPathExtraction = { targets: ToolPathTarget[] } | { error: string };

/** Characters that make a glob segment match more than itself (`\` too: an escape changes the meaning). */
const GLOB_META = /[*?[\]{}()!+@\\]/;
/** `..` as a whole segment or brace alternative: the match can climb above the static prefix. */
const CLIMBING = /(^|[/{,])\.\.(?=$|[/},])/;
/** A brace alternative that starts at the file-system root or the home directory (`{/etc/x,a}`). */
const ROOTED_ALTERNATIVE = /[{,][/~]/;

/**
 * The paths a file-tool call touches, or null for a tool the guard does not check. Pure: no file-system
 * access. A guarded tool whose path field is missing or not a string is an error (the caller blocks it).
 * Glob: the search directory (`path`, default cwd) and the pattern's static prefix joined to it; a pattern
 * that can climb out after its first wildcard or names a rooted brace alternative is an error.
 */
export function extractToolPaths(
  toolName: string,
  toolInput: Record<string, unknown>,
): ToolPathExtraction | null {
  if (toolName === 'Glob') return extractGlobPaths(toolInput);
  const spec = SINGLE_PATH_TOOLS[toolName];
  if (!spec) return extractPathLikeFields(toolName, toolInput);
  const value = toolInput[spec.field];
  if (value === undefined && spec.optional) {
    return { targets: [{ field: spec.field, path: undefined, access: spec.access }] };
  }
  if (typeof value !== 'string') {
    return { error: `${toolName} input has no string '${spec.field}'` };
  }
  return { targets: [{ field: spec.field, path: value, access: spec.access }] };
}

function extractGlobPaths(toolInput: Record<string, unknown>): ToolPathExtraction {
  const { pattern, path } = toolInput;
  if (typeof pattern !== 'string' || pattern === '') return { error: "Glob input has no string 'pattern'" };
  if (path !== undefined && typeof path !== 'string') return { error: "Glob input 'path' is not a string" };
  if (pattern.startsWith('~')) return { error: `Glob pattern '${pattern}' starts in a home directory` };
  const searchDir = path === undefined || path === '' ? undefined : path;
  const targets: ToolPathTarget[] = [{ field: 'path', path: searchDir, access: 'read' }];

  const segments = pattern.split('/');
  const firstDynamic = segments.findIndex((segment) => GLOB_META.test(segment));
  const staticCount = firstDynamic === -1 ? segments.length : firstDynamic;
  const staticPrefix = segments.slice(0, staticCount).join('/');
  const dynamicPart = segments.slice(staticCount).join('/');
  if (CLIMBING.test(dynamicPart)) {
    return { error: `Glob pattern '${pattern}' climbs with '..' after a wildcard` };
  }
  if (ROOTED_ALTERNATIVE.test(dynamicPart)) {
    return { error: `Glob pattern '${pattern}' has a brace alternative outside the search directory` };
  }
  if (pattern.startsWith('/')) {
    // An absolute pattern searches from its own static prefix, whatever `path` says.
    targets.push({
      field: 'pattern',
      path: staticPrefix === '' ? '/' : staticPrefix,
      access: 'read',
      quoted: pattern,
    });
  } else if (staticPrefix !== '') {
    // Concatenated, not path.join: joining would fold `link/..` lexically and hide where it really leads.
    const joined = searchDir === undefined ? staticPrefix : `${searchDir}/${staticPrefix}`;
    targets.push({ field: 'pattern', path: joined, access: 'read', quoted: pattern });
  }
  return { targets };
}

/** Most nesting the scan of an unknown tool's input follows; deeper input is refused. */
const MAX_DEPTH = 8;
/** Field names (lower case, without `_` and `-`) that hold a path in tools the guard does not know. */
const PATH_FIELD_NAMES = new Set([
  'cwd',
  'dir',
  'dirs',
  'directory',
  'directories',
  'folder',
  'root',
  'file',
  'files',
  'filename',
  'source',
  'src',
  'destination',
  'dest',
  'target',
  'output',
  'workdir',
  'workingdirectory',
]);
const PATH_FIELD_ENDINGS = ['path', 'paths', 'dir', 'directory', 'folder'];

function isPathLikeField(name: string): boolean {
  const folded = name.toLowerCase().replace(/[_-]/g, '');
  return PATH_FIELD_NAMES.has(folded) || PATH_FIELD_ENDINGS.some((ending) => folded.endsWith(ending));
}

/**
 * A tool the guard does not know (an MCP tool, one a later CLI adds): every string under a path-like field
 * (`path`, `file_path`, `filePath`, `notebook_path`, `paths`, `directory`, `cwd`, …), at any depth and in
 * arrays, is a target, judged as a write because what the tool does with it is unknown. Null when the input
 * holds none.
 */
function extractPathLikeFields(
  toolName: string,
  toolInput: Record<string, unknown>,
): ToolPathExtraction | null {
  const targets: ToolPathTarget[] = [];
  const visit = (value: unknown, field: string, pathLike: boolean, depth: number): string | null => {
    if (depth > MAX_DEPTH) return `${toolName} input is nested more than ${MAX_DEPTH} levels deep`;
    if (typeof value === 'string') {
      if (pathLike) targets.push({ field, path: value, access: 'write' });
      return null;
    }
    if (Array.isArray(value)) {
      for (const item of value) {
        const error = visit(item, field, pathLike, depth + 1);
        if (error !== null) return error;
      }
      return null;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const error = visit(item, key, isPathLikeField(key), depth + 1);
        if (error !== null) return error;
      }
    }
    return null;
  };
  const error = visit(toolInput, 'input', false, 0);
  if (error !== null) return { error };
  return targets.length === 0 ? null : { targets };
}
