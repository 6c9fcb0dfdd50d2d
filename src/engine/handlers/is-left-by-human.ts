import type { WorkItemStatus } from '../../domain/index.ts';

/**
 * Statuses the engine never gives an item while its implementor runs (it sets them only once a run has
 * ended, or before one starts): an item found in one of them mid-run was moved there by a human, who has
 * taken it out of the agent's hands. Pending, ready and review are left out: the engine's own retries and
 * rework pass through them.
 */
const LEFT_BY_HUMAN: ReadonlySet<WorkItemStatus> = new Set<WorkItemStatus>([
  'closed',
  'approved',
  'blocked',
  'needs-refinement',
]);

/** Whether an item in this status was taken out of its running implementor's hands (see LEFT_BY_HUMAN). */
export function isLeftByHuman(status: WorkItemStatus | null | undefined): boolean {
  return status !== null && status !== undefined && LEFT_BY_HUMAN.has(status);
}
