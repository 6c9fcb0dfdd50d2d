import type { WorkItemRow, WorkItemSection } from './build-work-item-sections.ts';

/**
 * The sections with only the rows matching `query`: every word of it (case-insensitive) must appear in the
 * row's `#id`, title, display status, kind or priority — so `fail high` finds the failed high-priority items
 * and `#12` finds item 12 (and 120…). A blank query keeps every row. Sections stay, possibly empty, so the
 * layout keeps its shape while the user types.
 */
export function filterWorkItemSections(sections: WorkItemSection[], query: string): WorkItemSection[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sections;
  return sections.map((section) => ({
    ...section,
    rows: section.rows.filter((row) => {
      const text = searchableText(row);
      return words.every((word) => text.includes(word));
    }),
  }));
}

function searchableText(row: WorkItemRow): string {
  const { item } = row;
  return `#${item.id} ${item.title} ${row.displayStatus} ${item.kind} ${item.priority ?? ''}`.toLowerCase();
}
