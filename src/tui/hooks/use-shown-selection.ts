import { useEffect, useRef } from 'react';
import type { WorkItemRow } from '../view-model/build-work-item-sections.ts';

/**
 * The row shown selected. The selection follows the item, not the position; when the item leaves the list
 * (or nothing is selected yet), the row now at its place is shown selected, and `onFallback` makes it the
 * selection after the frame.
 */
export function useShownSelection(
  rows: readonly WorkItemRow[],
  selectedID: string | null,
  onFallback: (workItemID: string) => void,
): { index: number; row: WorkItemRow | null } {
  const lastIndex = useRef(0);
  let index = rows.findIndex((candidate) => candidate.item.id === selectedID);
  if (index < 0 && rows.length > 0) index = Math.min(lastIndex.current, rows.length - 1);
  const row = index >= 0 ? (rows[index] ?? null) : null;
  useEffect(() => {
    lastIndex.current = Math.max(0, index);
    if (row && row.item.id !== selectedID) onFallback(row.item.id);
  });
  return { index, row };
}
