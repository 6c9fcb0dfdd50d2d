import type { RevisionFile, RevisionFileStatus } from '../../domain/index.ts';
import { PINNED_DIFF_CONFIG, runGit } from '../../process/run-command.ts';

export interface ListChangedFilesOptions {
  /** Default: 2 minutes per git command. */
  timeoutMs?: number;
  /** A file whose hunks exceed this many characters gets `patch: null`. Default: 1 MiB. */
  maxPatchChars?: number;
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
const DEFAULT_MAX_PATCH_CHARS = 1024 * 1024;

const DIFF_FLAGS = ['--find-renames', '--no-color', '--no-ext-diff', '--no-textconv'];

interface NameStatusEntry {
  letter: string;
  path: string;
}

/**
 * The files changed between two commits, the way a tracker lists a pull request's files: status
 * added/modified/removed/renamed (path is the new name)/changed (type change, e.g. file → symlink), and the
 * file's hunks (from its first `@@`) as `patch`: `''` when there are none (mode change, pure rename, empty
 * file), null for binary files and for patches larger than `maxPatchChars`.
 */
export async function listChangedFiles(
  repoRoot: string,
  base: string,
  head: string,
  options: ListChangedFilesOptions = {},
): Promise<RevisionFile[]> {
  const gitOptions = { cwd: repoRoot, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const maxPatchChars = options.maxPatchChars ?? DEFAULT_MAX_PATCH_CHARS;
  const range = ['--end-of-options', base, head, '--'];
  // Paths come from the NUL-separated listing (exact, whatever the characters); the text patch is split
  // into `diff --git` blocks, which git emits in the same order as the listing.
  const [nameStatus, diff] = await Promise.all([
    runGit([...PINNED_DIFF_CONFIG, 'diff', '--name-status', '-z', ...DIFF_FLAGS, ...range], gitOptions),
    runGit([...PINNED_DIFF_CONFIG, 'diff', '--full-index', ...DIFF_FLAGS, ...range], gitOptions),
  ]);
  const entries = parseNameStatus(nameStatus.stdout);
  const blocks = splitDiffBlocks(diff.stdout);

  const files: RevisionFile[] = [];
  let next = 0;
  for (const entry of entries) {
    // A type change is listed once but shown as two blocks: the old file removed, the new one added.
    const count = entry.letter === 'T' ? 2 : 1;
    const own = blocks.slice(next, next + count);
    next += count;
    if (own.length !== count) {
      throw new Error(`git diff ${base} ${head}: the patch has fewer file sections than the file listing`);
    }
    files.push({
      path: entry.path,
      status: toStatus(entry.letter),
      patch: buildFilePatch(own, maxPatchChars),
    });
  }
  if (next !== blocks.length) {
    throw new Error(`git diff ${base} ${head}: the patch has more file sections than the file listing`);
  }
  return files;
}

/** `-z --name-status`: `M\0path\0`, or `R100\0old\0new\0` for renames and copies. */
function parseNameStatus(output: string): NameStatusEntry[] {
  const fields = output.split('\0');
  const entries: NameStatusEntry[] = [];
  let i = 0;
  while (i < fields.length) {
    const status = fields[i] ?? '';
    if (status === '') break;
    const letter = status.charAt(0);
    const twoPaths = letter === 'R' || letter === 'C';
    const path = fields[i + (twoPaths ? 2 : 1)];
    if (path === undefined)
      throw new Error(`Unexpected git diff --name-status output: ${JSON.stringify(output)}`);
    entries.push({ letter, path });
    i += twoPaths ? 3 : 2;
  }
  return entries;
}

function splitDiffBlocks(diff: string): string[][] {
  const blocks: string[][] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) blocks.push([line]);
    else blocks.at(-1)?.push(line);
  }
  return blocks;
}

function toStatus(letter: string): RevisionFileStatus {
  switch (letter) {
    case 'A':
      return 'added';
    case 'M':
      return 'modified';
    case 'D':
      return 'removed';
    case 'R':
      return 'renamed';
    case 'C':
      return 'copied';
    default:
      return 'changed';
  }
}

function buildFilePatch(blocks: string[][], maxPatchChars: number): string | null {
  const hunks: string[] = [];
  for (const block of blocks) {
    const hunkStart = block.findIndex((line) => line.startsWith('@@'));
    const header = hunkStart === -1 ? block : block.slice(0, hunkStart);
    if (header.some((line) => line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)))
      return null;
    if (hunkStart !== -1) hunks.push(...block.slice(hunkStart));
  }
  let end = hunks.length;
  while (end > 0 && hunks[end - 1] === '') end--;
  const patch = hunks.slice(0, end).join('\n');
  return patch.length > maxPatchChars ? null : patch;
}
