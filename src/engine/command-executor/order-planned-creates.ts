import type { PlannedWorkItem } from '../../domain/index.ts';

export type PlannedCreateOrder = { ok: true; order: PlannedWorkItem[] } | { ok: false; error: string };

/**
 * Orders a planner's creates so every blocker named by tempID is created before the items it blocks
 * (a `blockedBy` may name a later create). Rejects duplicate tempIDs, unknown references and cycles.
 * `knownIDs` are existing work item ids a `blockedBy` may also name.
 */
export function orderPlannedCreates(
  creates: PlannedWorkItem[],
  knownIDs: ReadonlySet<string>,
): PlannedCreateOrder {
  const byTempID = new Map<string, PlannedWorkItem>();
  for (const create of creates) {
    if (byTempID.has(create.tempID))
      return { ok: false, error: `duplicate tempID '${create.tempID}' in create` };
    byTempID.set(create.tempID, create);
  }
  for (const create of creates) {
    for (const ref of create.blockedBy) {
      if (!byTempID.has(ref) && !knownIDs.has(ref)) {
        return {
          ok: false,
          error: `create '${create.tempID}' is blocked by '${ref}', which is neither a tempID in this result nor an existing work item`,
        };
      }
    }
  }
  const order: PlannedWorkItem[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (create: PlannedWorkItem, path: string[]): string | null => {
    const mark = state.get(create.tempID);
    if (mark === 'done') return null;
    if (mark === 'visiting') return [...path, create.tempID].join(' → ');
    state.set(create.tempID, 'visiting');
    for (const ref of create.blockedBy) {
      const blocker = byTempID.get(ref);
      if (!blocker) continue;
      const cycle = visit(blocker, [...path, create.tempID]);
      if (cycle) return cycle;
    }
    state.set(create.tempID, 'done');
    order.push(create);
    return null;
  };
  for (const create of creates) {
    const cycle = visit(create, []);
    if (cycle) return { ok: false, error: `dependency cycle between planned items: ${cycle}` };
  }
  return { ok: true, order };
}
