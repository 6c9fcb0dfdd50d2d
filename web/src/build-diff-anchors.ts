/** A line of a revision's new version a review comment can point at (`{ path, line }`, line from 1). */
export interface DiffAnchor {
  path: string;
  line: number;
}

/** What the anchors need of a revision file (the API's `RevisionFile`). */
interface DiffFile {
  path: string;
  patch: string | null;
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * For each line the server's `buildDiffLines` draws (src/tui/view-model/build-diff-lines.ts: a summary line,
 * then per file a rule, a header and its patch lines), the new-version line it shows, or null: added and
 * context lines inside a hunk have one (counted from the hunk header's `+start`); removed lines, hunk and
 * file headers, binary files and the summary have none. Same length and order as those lines.
 */
export function buildDiffAnchors(files: readonly DiffFile[]): (DiffAnchor | null)[] {
  if (files.length === 0) return [null];
  const anchors: (DiffAnchor | null)[] = [null];
  for (const file of files) {
    anchors.push(null, null);
    if (file.patch === null) {
      anchors.push(null);
      continue;
    }
    let next: number | null = null;
    for (const text of file.patch.replace(/\n$/, '').split('\n')) {
      const hunk = HUNK_HEADER.exec(text);
      if (hunk !== null) {
        next = Number(hunk[1]);
        anchors.push(null);
      } else if (next !== null && (text.startsWith('+') || text.startsWith(' ') || text === '')) {
        anchors.push({ path: file.path, line: next });
        next += 1;
      } else {
        // Removed lines (the old version's), "\ No newline at end of file", headers before the first hunk.
        anchors.push(null);
      }
    }
  }
  return anchors;
}
