import type { WorkItem } from '../../domain/index.ts';
import { withoutTrailingNewlines } from './markdown-text.ts';

/** `## Work Item #<id> — <title>`, the body, then `### Status` (docs/runtime-spec.md §Context Assembly). */
export function buildWorkItemSection(
  workItem: Pick<WorkItem, 'id' | 'title' | 'status'>,
  body: string,
): string {
  return [
    `## Work Item #${workItem.id} — ${workItem.title}`,
    withoutTrailingNewlines(body) || '(no description)',
    `### Status\n${workItem.status}`,
  ].join('\n\n');
}
