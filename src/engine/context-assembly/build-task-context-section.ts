import type { TaskContextEntry } from '../../domain/index.ts';

/** Characters the task context section may take by default (about 4,000 tokens). */
export const DEFAULT_TASK_CONTEXT_BUDGET = 16_000;

/** A shortened entry keeps this many characters of its summary. */
export const SHORTENED_SUMMARY_CHARS = 240;

/** Room kept for the line that says how many entries were left out. */
const NOTE_RESERVE = 160;

/**
 * The "Task context" section every prompt of an item starts with (issue #28 §1, docs/task-context.md): what
 * earlier runs on it did, oldest first, within `budgetChars`. The newest entry is always kept whole; older
 * ones are kept whole while they fit, then shortened (their summary cut to SHORTENED_SUMMARY_CHARS), and
 * the oldest ones that would not fit even shortened are left out — the section then says how many, never
 * dropping silently. '' when there are no entries. Entries must be oldest first (as the state keeps them).
 */
export function buildTaskContextSection(
  entries: readonly TaskContextEntry[],
  budgetChars: number = DEFAULT_TASK_CONTEXT_BUDGET,
): string {
  const newest = entries.at(-1);
  if (newest === undefined) return '';
  const heading = '## Task context\n\nWhat earlier runs on this item did, oldest first:';
  const kept = [renderEntry(newest, false)];
  let remaining = budgetChars - heading.length - (kept[0] as string).length - NOTE_RESERVE;
  let shortening = false;
  let leftOut = 0;
  for (let index = entries.length - 2; index >= 0; index--) {
    const entry = entries[index] as TaskContextEntry;
    if (!shortening) {
      const whole = renderEntry(entry, false);
      if (whole.length + 2 <= remaining) {
        kept.push(whole);
        remaining -= whole.length + 2;
        continue;
      }
      shortening = true;
    }
    const short = renderEntry(entry, true);
    if (short.length + 2 > remaining) {
      leftOut = index + 1;
      break;
    }
    kept.push(short);
    remaining -= short.length + 2;
  }
  const parts = [heading];
  if (leftOut > 0)
    parts.push(
      `(${leftOut} older ${leftOut === 1 ? 'entry' : 'entries'} left out to fit the prompt's budget; ` +
        '`flotilla work show` lists them all.)',
    );
  for (let index = kept.length - 1; index >= 0; index--) parts.push(kept[index] as string);
  return parts.join('\n\n');
}

function renderEntry(entry: TaskContextEntry, shortened: boolean): string {
  const source = entry.runtime === null ? entry.role : `${entry.role} · ${entry.runtime}`;
  const when = new Date(entry.createdAt).toISOString();
  const heading = `### [${source}] ${entry.type} — ${when} (run ${entry.sessionID})`;
  const files = Array.isArray(entry.data.files) ? (entry.data.files as unknown[]).map(String) : [];
  if (shortened) {
    const cut = entry.summary.length > SHORTENED_SUMMARY_CHARS;
    const summary = cut ? `${entry.summary.slice(0, SHORTENED_SUMMARY_CHARS)}… (shortened)` : entry.summary;
    return `${heading}\n${summary || '(no summary)'}`;
  }
  const lines = [heading, entry.summary || '(no summary)'];
  if (files.length > 0) lines.push(`Files: ${files.join(', ')}`);
  return lines.join('\n');
}
