import type { RevisionFile, RevisionFileStatus } from '../domain/index.ts';

const DIFF_HEADER = 'diff --git ';

/**
 * Splits a `git diff` into the files it touches, the way a tracker lists a pull request's files:
 * `new file mode` → added, `deleted file mode` → removed, `rename from/to` → renamed (path is the new name),
 * `copy from/to` → copied, anything else → modified. `patch` is the file's hunks (from the first `@@`), as
 * GitHub reports it; `''` when there are none (mode change, pure rename, empty file); null for binary files.
 * Text before the first `diff --git` line is ignored.
 */
export function parsePatchFiles(patch: string): RevisionFile[] {
  const lines = patch.split('\n');
  const blocks: string[][] = [];
  for (const line of lines) {
    if (line.startsWith(DIFF_HEADER)) blocks.push([line]);
    else blocks.at(-1)?.push(line);
  }
  return blocks.map(parseBlock);
}

function parseBlock(block: string[]): RevisionFile {
  const hunkStart = block.findIndex((line) => line.startsWith('@@'));
  const header = hunkStart === -1 ? block : block.slice(0, hunkStart);
  const headerValue = (prefix: string): string | null => {
    const line = header.find((candidate) => candidate.startsWith(prefix));
    return line === undefined ? null : unquote(line.slice(prefix.length));
  };

  const binary = header.some((line) => line === 'GIT binary patch' || /^Binary files .* differ$/.test(line));
  const renameTo = headerValue('rename to ');
  const copyTo = headerValue('copy to ');
  let status: RevisionFileStatus = 'modified';
  if (header.some((line) => line.startsWith('new file mode'))) status = 'added';
  else if (header.some((line) => line.startsWith('deleted file mode'))) status = 'removed';
  else if (renameTo !== null) status = 'renamed';
  else if (copyTo !== null) status = 'copied';

  const path =
    renameTo ??
    copyTo ??
    stripSide(headerValue('+++ '), 'b/') ??
    stripSide(headerValue('--- '), 'a/') ??
    pathFromDiffHeader(block[0] ?? '');

  let filePatch: string | null = null;
  if (!binary) filePatch = hunkStart === -1 ? '' : trimTrailingEmpty(block.slice(hunkStart)).join('\n');
  return { path, status, patch: filePatch };
}

/** `+++ b/src/x.ts\t` → `src/x.ts`; `/dev/null` → null so the other side is used. */
function stripSide(value: string | null, side: 'a/' | 'b/'): string | null {
  if (value === null) return null;
  const withoutTab = value.split('\t')[0] ?? value;
  if (withoutTab === '/dev/null') return null;
  return withoutTab.startsWith(side) ? withoutTab.slice(side.length) : withoutTab;
}

/** Fallback for blocks without `---`/`+++` lines (binary, mode-only): `diff --git a/x b/x` → `x`. */
function pathFromDiffHeader(line: string): string {
  const rest = line.slice(DIFF_HEADER.length);
  const quoted = /^"a\/(?:[^"\\]|\\.)*" "b\/((?:[^"\\]|\\.)*)"$/.exec(rest);
  if (quoted?.[1] !== undefined) return unquote(`"${quoted[1]}"`);
  // Unquoted: both sides are the same length when the path did not change, so split in the middle.
  const half = (rest.length - 1) / 2;
  const right = rest.slice(half + 1);
  if (Number.isInteger(half) && rest.slice(0, half) === `a/${right.slice(2)}` && right.startsWith('b/')) {
    return right.slice(2);
  }
  const marker = rest.lastIndexOf(' b/');
  return marker === -1 ? rest : rest.slice(marker + 3);
}

/** Git quotes paths with unusual characters: `"a/sp\303\244ce"`. Undoes the common escapes. */
function unquote(value: string): string {
  if (!(value.startsWith('"') && value.endsWith('"') && value.length >= 2)) return value;
  const bytes: number[] = [];
  const body = value.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const char = body[i] ?? '';
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else {
      const next = body[i + 1] ?? '';
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function trimTrailingEmpty(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  return lines.slice(0, end);
}
