import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { runGit } from '../../process/run-command.ts';

/**
 * A unified diff from `before` to `after` labelled with the spec's path ('' when they are equal), made by
 * git itself (no diff library): both versions go to a scratch directory as a/<path> and b/<path>, so
 * `git diff --no-index` labels the hunks with the spec's own path. No repository is read or written.
 */
export async function diffSpecText(filePath: string, before: string, after: string): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-spec-diff-'));
  try {
    const inRepo = normalize(filePath);
    const relativePath = inRepo === '.' || inRepo.startsWith('..') || isAbsolute(inRepo) ? 'spec' : inRepo;
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
}
