import { posix } from 'node:path';
import {
  PROTECTED_FILE_NAMES,
  PROTECTED_PATH_SEGMENTS,
} from '../../guards/bash-validator/protected-paths.ts';
import { runGit } from '../../process/run-command.ts';

const GITLINK_MODE = '160000';
const SYMLINK_MODE = '120000';

/**
 * Why each change in the worktree's index (as `extractPatch` left it: everything staged) is refused, or []
 * when none is. CLI agents have no hooks, so this post-run check stands in for the path guard: no paths
 * git runs or obeys (`.git`, the bash validator's protected paths: `.claude/`, `.npmrc`, rc files…), no
 * `protectedPaths` from the config (repository-relative, a directory covers what is below it), no nested
 * repositories (gitlinks) and no symlink pointing outside the repository.
 */
export async function findForbiddenChanges(input: {
  worktreePath: string;
  baseCommit: string;
  protectedPaths?: readonly string[];
}): Promise<string[]> {
  const { stdout } = await runGit(
    ['diff', '--cached', '--no-renames', '--raw', '--no-abbrev', '-z', input.baseCommit, '--'],
    { cwd: input.worktreePath, timeoutMs: 120_000 },
  );
  const configured = (input.protectedPaths ?? []).map((path) => posix.normalize(path).replace(/\/+$/, ''));
  const problems: string[] = [];
  // `-z --raw`: ":<old mode> <new mode> <old sha> <new sha> <status>\0<path>\0" per change.
  const fields = stdout.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [, newMode = '', , newSha = ''] = (fields[i] ?? '').slice(1).split(' ');
    const path = fields[i + 1] ?? '';
    const protectedName = findProtectedName(path);
    if (protectedName !== null) problems.push(`${path}: ${protectedName} is a protected path`);
    const covering = configured.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    if (covering !== undefined) problems.push(`${path}: under the configured protected path ${covering}`);
    if (newMode === GITLINK_MODE) problems.push(`${path}: a nested git repository (gitlink)`);
    if (newMode === SYMLINK_MODE) {
      const target = (await runGit(['cat-file', 'blob', newSha], { cwd: input.worktreePath })).stdout;
      if (pointsOutside(path, target))
        problems.push(`${path}: a symlink to ${target}, outside the repository`);
    }
  }
  return problems;
}

function findProtectedName(path: string): string | null {
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] ?? '';
    // git refuses `.git` itself, but not the case variants some filesystems fold into it.
    if (PROTECTED_PATH_SEGMENTS.includes(segment.toLowerCase())) return segment;
    if (PROTECTED_FILE_NAMES.includes(segment)) return segment;
    if (segment === '.config' && segments[i + 1] === 'git') return '.config/git';
  }
  return null;
}

function pointsOutside(linkPath: string, target: string): boolean {
  if (target.startsWith('/') || target.startsWith('~')) return true;
  const resolved = posix.normalize(posix.join(posix.dirname(linkPath), target));
  return resolved === '..' || resolved.startsWith('../');
}
