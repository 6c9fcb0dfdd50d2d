import type { RevisionFile } from '../../domain/index.ts';
import type { DetailLine } from './build-detail-content.ts';

/**
 * A revision's changes as pane lines, file by file: a bold header with the file's status, then its unified
 * diff with added lines green, removed lines red and hunk headers cyan. Binary files and diffs the provider
 * left out (too large) say so. The text stays as the provider gave it (the viewport sanitizes it).
 */
export function buildDiffLines(files: readonly RevisionFile[]): DetailLine[] {
  if (files.length === 0) return [{ text: 'no changed files', dim: true }];
  const byStatus = new Map<string, number>();
  for (const file of files) byStatus.set(file.status, (byStatus.get(file.status) ?? 0) + 1);
  const counts = [...byStatus].map(([status, count]) => `${count} ${status}`).join(', ');
  const lines: DetailLine[] = [
    { text: `${files.length} file${files.length === 1 ? '' : 's'} changed: ${counts}`, dim: true },
  ];
  for (const file of files) {
    lines.push({ text: '', rule: true });
    lines.push({ text: `${file.path} (${file.status})`, bold: true });
    if (file.patch === null) {
      lines.push({ text: 'binary, or too large to show here', dim: true });
      continue;
    }
    for (const text of file.patch.replace(/\n$/, '').split('\n')) lines.push(styleDiffLine(text));
  }
  return lines;
}

function styleDiffLine(text: string): DetailLine {
  if (text.startsWith('+++') || text.startsWith('---')) return { text, dim: true };
  if (text.startsWith('+')) return { text, color: 'green' };
  if (text.startsWith('-')) return { text, color: 'red' };
  if (text.startsWith('@@')) return { text, color: 'cyan' };
  if (text.startsWith('diff --git') || text.startsWith('index ')) return { text, dim: true };
  return { text };
}
