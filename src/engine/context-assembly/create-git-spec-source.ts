import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { runGit } from '../../process/run-command.ts';

export interface SpecSource {
  readSpec(filePath: string): Promise<string>;
  readBlob(blobSHA: string): Promise<string>;
  diffText(filePath: string, before: string, after: string): Promise<string>;
}

const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The planner's spec access backed by the local repository: current specs from the working tree, old
 * versions by blob SHA from the object database, and diffs by git itself (no diff library).
 */
export function createGitSpecSource({ repoRoot }: { repoRoot: string }): SpecSource {
  return {
    async readSpec(filePath) {
      const path = resolve(repoRoot, filePath);
      const inside = relative(repoRoot, path);
      if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
        throw new Error(`Spec path ${filePath} is outside the repository`);
      }
      return readFile(path, 'utf8');
    },

    async readBlob(blobSHA) {
      if (!OBJECT_NAME.test(blobSHA)) throw new Error(`Not a blob SHA: "${blobSHA}"`);
      return (await runGit(['cat-file', 'blob', blobSHA], { cwd: repoRoot })).stdout;
    },

    async diffText(filePath, before, after) {
      // Both versions go to a scratch directory as a/<path> and b/<path>, so `git diff --no-index` labels
      // the hunks with the spec's own path; nothing is written to the repository.
      const scratch = await mkdtemp(join(tmpdir(), 'flotilla-spec-diff-'));
      try {
        const inRepo = relative(repoRoot, resolve(repoRoot, filePath));
        const relativePath = inRepo === '' || inRepo.startsWith('..') || isAbsolute(inRepo) ? 'spec' : inRepo;
        const oldPath = join('a', relativePath);
        const newPath = join('b', relativePath);
        for (const [path, content] of [
          [oldPath, before],
          [newPath, after],
        ] as const) {
          await mkdir(dirname(join(scratch, path)), { recursive: true });
          await writeFile(join(scratch, path), content);
        }
        const { stdout } = await runGit(
          ['diff', '--no-index', '--no-color', '--no-ext-diff', '--no-prefix', '--', oldPath, newPath],
          { cwd: scratch, okExitCodes: [0, 1] },
        );
        // Drop git's `diff --git` and `index` lines (scratch-file metadata); keep the ---/+++ header and hunks.
        const start = stdout.indexOf('\n--- ');
        return start === -1 ? stdout : stdout.slice(start + 1);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  };
}
