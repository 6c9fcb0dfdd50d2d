import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit } from '../process/run-command.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';

/**
 * The git pathspecs of `worktree.copy` patterns (paths or globs relative to the repository root): how
 * `listLocalFiles` finds them and how `extractPatch` keeps them out of every patch.
 */
export function buildLocalFilePathspecs(patterns: readonly string[]): string[] {
  return patterns.map((pattern) => `:(top,glob)${pattern}`);
}

/**
 * Copies the main checkout's files matching `patterns` (`worktree.copy`: `.env`, local config; tracked or
 * not, git-ignored included) into the worktree at the same relative paths, overwriting what is there.
 * Nothing under `.worktrees/` or `.flotilla/` is copied. Returns the relative paths copied.
 */
export async function copyLocalFiles(params: {
  repoRoot: string;
  worktreePath: string;
  patterns: readonly string[];
  timeoutMs?: number;
}): Promise<string[]> {
  if (params.patterns.length === 0) return [];
  const { stdout } = await runGit(
    [
      'ls-files',
      '-z',
      '--cached',
      '--others',
      '--',
      ...buildLocalFilePathspecs(params.patterns),
      ':(top,exclude).worktrees',
      ':(top,exclude).flotilla',
    ],
    { cwd: params.repoRoot, timeoutMs: params.timeoutMs ?? 60_000 },
  );
  const files = [...new Set(stdout.split('\0').filter((path) => path !== ''))];
  for (const file of files) {
    const target = join(params.worktreePath, file);
    await mkdir(dirname(target), { recursive: true });
    // Listed in the index but deleted in the main checkout: nothing to copy.
    await copyFile(join(params.repoRoot, file), target).catch((error: unknown) => {
      if (!hasErrorCode(error, 'ENOENT')) throw error;
    });
  }
  return files;
}
