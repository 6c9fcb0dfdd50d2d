import type { SectionKey, WorkItemRow, WorkItemSection } from './build-work-item-sections.ts';

export interface SectionLayout {
  key: SectionKey;
  title: string;
  total: number;
  /** Index of the first visible row. */
  start: number;
  rows: WorkItemRow[];
}

/**
 * Splits `height` rows between the sections (a header row each, then rows shared out evenly among the
 * sections that have more to show, so a 3-item AGENTS section is never squeezed by a 500-item backlog),
 * and scrolls each section just enough to keep the selected row visible, starting from `previousStarts`.
 */
export function buildListLayout(
  sections: WorkItemSection[],
  selectedID: string | null,
  height: number,
  previousStarts: Partial<Record<SectionKey, number>>,
): SectionLayout[] {
  const capacity: number[] = sections.map((section) => (section.rows.length > 0 ? 1 : 0));
  let remaining = height - sections.length - capacity.reduce((sum, value) => sum + value, 0);
  while (remaining > 0) {
    let grew = false;
    sections.forEach((section, index) => {
      if (remaining > 0 && (capacity[index] ?? 0) < section.rows.length) {
        capacity[index] = (capacity[index] ?? 0) + 1;
        remaining -= 1;
        grew = true;
      }
    });
    if (!grew) break;
  }
  // A terminal too short for every header still shows the section with the selection.
  while (remaining < 0) {
    const holdsSelection = (i: number) =>
      sections[i]?.rows.some((row) => row.item.id === selectedID) ?? false;
    const index = capacity.findIndex((value, i) => value > 0 && !holdsSelection(i));
    if (index < 0) break;
    capacity[index] = (capacity[index] ?? 1) - 1;
    remaining += 1;
  }

  return sections.map((section, index) => {
    const visible = capacity[index] ?? 0;
    const selectedIndex = section.rows.findIndex((row) => row.item.id === selectedID);
    let start = Math.min(previousStarts[section.key] ?? 0, Math.max(0, section.rows.length - visible));
    if (selectedIndex >= 0) {
      if (selectedIndex < start) start = selectedIndex;
      if (selectedIndex >= start + visible) start = selectedIndex - visible + 1;
    }
    start = Math.max(0, start);
    return {
      key: section.key,
      title: section.title,
      total: section.rows.length,
      start,
      rows: section.rows.slice(start, start + visible),
    };
  });
}
