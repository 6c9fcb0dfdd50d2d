import type { AgentRole } from './agent-result.ts';

/**
 * What kind of work a task context entry records (issue #28 §1, docs/task-context.md): the plan that created
 * or updated the item (`plan_summary`), an implementor's
 * first change (`implementation_summary`) or a later one on the same revision (`fix_summary`), a reviewer's
 * verdict (`review_feedback`, `review_approved`), an implementor that stopped (`blocked_summary`), whose
 * work failed validation (`validation_failure`) or changed nothing (`no_changes`); a human's answers to a
 * run's questions (`answers`), which the resumed session got and every later run on the item needs too.
 */
export type TaskContextEntryType =
  | 'plan_summary'
  | 'implementation_summary'
  | 'fix_summary'
  | 'blocked_summary'
  | 'validation_failure'
  | 'no_changes'
  | 'review_feedback'
  | 'review_approved'
  | 'answers'
  // Issue #29 modes: an investigation's or refinement's summary on its item, the investigation's report on
  // each fix item it created.
  | 'investigation_summary'
  | 'refinement_summary'
  | 'investigation_report';

export const TASK_CONTEXT_ENTRY_TYPES: readonly TaskContextEntryType[] = [
  'plan_summary',
  'implementation_summary',
  'fix_summary',
  'blocked_summary',
  'validation_failure',
  'no_changes',
  'review_feedback',
  'review_approved',
  'answers',
  'investigation_summary',
  'refinement_summary',
  'investigation_report',
];

/** The entry id of a human's answers to a waiting session's questions (one per asking session). */
export function answersEntryID(sessionID: string, sessionNumber: number): string {
  return `${sessionID}:answers:${sessionNumber}`;
}

/** A summary is cut to this many characters (an ellipsis marks the cut). */
export const MAX_TASK_CONTEXT_SUMMARY_CHARS = 2000;

/**
 * One run's contribution to its work item's history, shown to every later run on the item (the "Task
 * context" section of its prompt) and by `flotilla work show`. Plain data; `data` holds JSON values only.
 */
export interface TaskContextEntry {
  /** `<sessionID>:<type>`: one entry per run and kind, so recording an event twice adds nothing. */
  id: string;
  workItemID: string;
  /** The run that produced it. */
  sessionID: string;
  role: AgentRole;
  /** The runtime the run ran on (`claude`, `codex`, `scripted`…); null when it did not say. */
  runtime: string | null;
  type: TaskContextEntryType;
  /** From the agent's structured output (or the run's error), at most MAX_TASK_CONTEXT_SUMMARY_CHARS. */
  summary: string;
  data: Record<string, unknown>;
  /** Epoch milliseconds: when the run ended. */
  createdAt: number;
}

/** The summary as it is stored: at most MAX_TASK_CONTEXT_SUMMARY_CHARS, a cut marked with `…`. */
export function boundTaskContextSummary(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= MAX_TASK_CONTEXT_SUMMARY_CHARS) return trimmed;
  return `${trimmed.slice(0, MAX_TASK_CONTEXT_SUMMARY_CHARS - 1)}…`;
}

/**
 * One item's history from two sources (this machine's store and a tracker's mirror): each entry once (by id,
 * the first source's copy kept), oldest first (by end time, then id, so every machine lists them alike).
 */
export function mergeTaskContext(
  first: readonly TaskContextEntry[],
  second: readonly TaskContextEntry[],
): TaskContextEntry[] {
  const byID = new Map<string, TaskContextEntry>();
  for (const entry of [...first, ...second]) if (!byID.has(entry.id)) byID.set(entry.id, entry);
  return [...byID.values()].sort(
    (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
