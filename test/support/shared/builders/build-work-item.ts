import type { WorkItem } from '../../../../src/domain/index.ts';

/** A pending task with no blockers and no revision, unless overridden. */
export function buildWorkItem(overrides: Partial<WorkItem> = {}): WorkItem {
  const id = overrides.id ?? 'wi-1';
  return {
    id,
    title: `Work item ${id}`,
    status: 'pending',
    kind: 'task',
    priority: null,
    complexity: null,
    blockedBy: [],
    createdAt: '2025-01-01T00:00:00.000Z',
    linkedRevision: null,
    ...overrides,
  };
}
