import {
  WORK_ITEM_COMPLEXITIES,
  WORK_ITEM_PRIORITIES,
  WORK_ITEM_STATUSES,
  type WorkItemComplexity,
  type WorkItemKind,
  type WorkItemMode,
  type WorkItemPriority,
  type WorkItemStatus,
} from './work-item.ts';

export interface ParsedWorkItemLabels {
  status: WorkItemStatus | null;
  kind: WorkItemKind;
  priority: WorkItemPriority | null;
  complexity: WorkItemComplexity | null;
  /** The runtime a `runtime:<name>` label names (any name: the engine checks it at dispatch), or null. */
  runtime: string | null;
  /** `task:investigate` or `task:refine` (issue #29 modes): the item is run in that mode; null otherwise. */
  mode: WorkItemMode | null;
  /**
   * The first `complexity:*` value when it is not one of WORK_ITEM_COMPLEXITIES (`simple`, `complex`…):
   * `models.implementor` may route on it. Null otherwise (`complexity` holds it).
   */
  complexityLabel: string | null;
  /** Labels outside the reserved prefixes, kept as they are. */
  other: string[];
}

const RESERVED_PREFIXES = ['status:', 'task:', 'priority:', 'complexity:'];

function pick<T extends string>(labels: readonly string[], prefix: string, allowed: readonly T[]): T | null {
  // Several valid values: the alphabetically first wins, so the outcome does not depend on label order.
  const values = labels
    .filter((label) => label.startsWith(prefix))
    .map((label) => label.slice(prefix.length))
    .filter((value): value is T => (allowed as readonly string[]).includes(value))
    .sort();
  return values[0] ?? null;
}

/** A `complexity:*` value outside the known complexities, when there is no known one (see complexityLabel). */
function pickOtherComplexity(labels: readonly string[]): string | null {
  const values = labels
    .filter((label) => label.startsWith('complexity:'))
    .map((label) => label.slice('complexity:'.length).trim())
    .filter((value) => value !== '')
    .sort();
  if (values.some((value) => (WORK_ITEM_COMPLEXITIES as readonly string[]).includes(value))) return null;
  return values[0] ?? null;
}

export const RUNTIME_LABEL_PREFIX = 'runtime:';

/** The kind label of the item that carries a planner's questions (WorkItemKind `questions`). */
export const PLANNER_QUESTIONS_LABEL = 'task:questions';

/** Several `runtime:` labels: the alphabetically first wins, as for the other categories. */
function pickRuntime(labels: readonly string[]): string | null {
  const values = labels
    .filter((label) => label.startsWith(RUNTIME_LABEL_PREFIX))
    .map((label) => label.slice(RUNTIME_LABEL_PREFIX.length).trim())
    .filter((value) => value !== '')
    .sort();
  return values[0] ?? null;
}

/**
 * Reads the reserved label categories (docs/reference-behaviour.md §1.1): `status:*`, `task:implement|refinement|questions|proposal`,
 * `priority:*`, `complexity:*` (tasks only). Unknown values under a known prefix are dropped. `runtime:<name>`
 * is read too and kept among the other labels (it is an ordinary label on trackers).
 */
export function parseWorkItemLabels(labels: readonly string[]): ParsedWorkItemLabels {
  const picked = pick(labels, 'task:', [
    'implement',
    'refinement',
    'questions',
    'proposal',
    'investigate',
    'refine',
  ] as const);
  const kind = picked === 'refinement' || picked === 'questions' || picked === 'proposal' ? picked : 'task';
  return {
    status: pick(labels, 'status:', WORK_ITEM_STATUSES),
    kind,
    priority: pick(labels, 'priority:', WORK_ITEM_PRIORITIES),
    complexity: kind === 'task' ? pick(labels, 'complexity:', WORK_ITEM_COMPLEXITIES) : null,
    runtime: pickRuntime(labels),
    mode: picked === 'investigate' || picked === 'refine' ? picked : null,
    complexityLabel: pickOtherComplexity(labels),
    other: labels.filter((label) => !RESERVED_PREFIXES.some((prefix) => label.startsWith(prefix))),
  };
}
