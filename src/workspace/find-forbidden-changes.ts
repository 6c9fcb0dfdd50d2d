import { posix } from 'node:path';
import { findProtectedName } from '../guards/bash-validator/protected-paths.ts';
import { runGit } from '../process/run-command.ts';

const GITLINK_MODE = '160000';
const SYMLINK_MODE = '120000';

export interface FindForbiddenChangesParams {
  /** The implementor's worktree, its index holding every change (`git add --all`, as extractPatch does). */
  worktreePath: string;
  baseCommit: string;
  /** Repository-relative paths no patch may touch (config `protectedPaths`); a directory covers its contents. */
  protectedPaths?: readonly string[];
  timeoutMs?: number;
}

/**
 * Why each change in the worktree's index against the base commit is refused, or [] when none is: no
 * paths git runs or obeys (`.git`, the guards' protected paths: `.claude/`, `.flotilla/`, `.npmrc`, rc
 * files…), no configured `protectedPaths`, no nested repositories (gitlinks), and no symlink that points
 * outside the repository, into a `.git` directory or at a protected path (a later write through it lands
 * there). Names are compared case-insensitively: macOS and Windows file systems fold case, so `.GIT/hooks`
 * and `.Claude/settings.json` are the protected files there.
 */
export async function findForbiddenChanges(input: FindForbiddenChangesParams): Promise<string[]> {
  const options = { cwd: input.worktreePath, timeoutMs: input.timeoutMs ?? 120_000 };
  const { stdout } = await runGit(
    ['diff', '--cached', '--no-renames', '--raw', '--no-abbrev', '-z', input.baseCommit, '--'],
    options,
  );
  const configured = (input.protectedPaths ?? []).map((path) =>
    posix.normalize(path).replace(/\/+$/, '').replace(/^\.\//, '').toLowerCase(),
  );
  const problems: string[] = [];
  // `-z --raw`: ":<old mode> <new mode> <old sha> <new sha> <status>\0<path>\0" per change.
  const fields = stdout.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [, newMode = '', , newSha = ''] = (fields[i] ?? '').slice(1).split(' ');
    const path = fields[i + 1] ?? '';
    const protectedName = findProtectedName(path);
    if (protectedName !== null) problems.push(`${path}: ${protectedName} is a protected path`);
    const folded = path.toLowerCase();
    const covering = configured.find((prefix) => folded === prefix || folded.startsWith(`${prefix}/`));
    if (covering !== undefined) problems.push(`${path}: under the configured protected path ${covering}`);
    if (newMode === GITLINK_MODE) problems.push(`${path}: a nested git repository (gitlink)`);
    if (newMode === SYMLINK_MODE) {
      const target = (await runGit(['cat-file', 'blob', newSha], options)).stdout;
      const why = judgeSymlink(path, target);
      if (why !== null) problems.push(`${path}: a symlink to ${target}, ${why}`);
    }
  }
  return problems;
}

/** Why a symlink at `linkPath` (repository-relative) pointing at `target` is refused, or null. */
function judgeSymlink(linkPath: string, target: string): string | null {
  if (target.startsWith('/') || target.startsWith('~')) return 'outside the repository';
  const resolved = posix.normalize(posix.join(posix.dirname(linkPath), target));
  if (resolved === '..' || resolved.startsWith('../')) return 'outside the repository';
  const named = findProtectedName(resolved);
  if (named !== null) return `into ${named}, a protected path`;
  return null;
}
