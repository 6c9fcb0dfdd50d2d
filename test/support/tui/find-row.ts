import type { EngineState } from '../../../src/engine/state-store/index.ts';
import {
  buildWorkItemSections,
  type WorkItemRow,
} from '../../../src/tui/view-model/build-work-item-sections.ts';

/** The row the dashboard builds for work item `id` (throws when the item is not shown). */
export function findRow(state: EngineState, id: string): WorkItemRow {
  for (const section of buildWorkItemSections(state)) {
    const row = section.rows.find((candidate) => candidate.item.id === id);
    if (row) return row;
  }
  throw new Error(`work item #${id} is not shown`);
}
