import type { TaskContextEntry } from '../../domain/index.ts';

/** A detail pane line (build-detail-content.ts's DetailLine, which imports this file). */
interface ContextLine {
  text: string;
  color?: 'cyan';
  bold?: boolean;
  dim?: boolean;
}

/** Summary lines shown per entry; `flotilla work show` and the web dashboard show the whole summary. */
const SUMMARY_LINES = 3;

/**
 * The item's task context in the detail pane (issue #28 §1): what each earlier run on it did, oldest first,
 * as its agents' prompts list it — the source, the entry's type and time, then the start of its summary.
 * The viewport sanitizes the agents' text.
 */
export function buildTaskContextLines(entries: readonly TaskContextEntry[] | undefined): ContextLine[] {
  if (entries === undefined || entries.length === 0) return [];
  const lines: ContextLine[] = [{ text: `task context (${entries.length}, oldest first):`, bold: true }];
  for (const entry of entries) {
    const source = entry.runtime === null ? entry.role : `${entry.role} · ${entry.runtime}`;
    const at = new Date(entry.createdAt).toISOString().slice(0, 16).replace('T', ' ');
    lines.push({ text: `  [${source}] ${entry.type} — ${at}`, color: 'cyan' });
    const summary = entry.summary.split('\n').filter((line) => line.trim() !== '');
    for (const line of summary.slice(0, SUMMARY_LINES)) lines.push({ text: `    ${line}` });
    if (summary.length > SUMMARY_LINES)
      lines.push({
        text: `    … ${summary.length - SUMMARY_LINES} more line(s): flotilla work show`,
        dim: true,
      });
  }
  return lines;
}
