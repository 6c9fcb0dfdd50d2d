import type { AgentRole } from './agent-result.ts';
import {
  MAX_TASK_CONTEXT_SUMMARY_CHARS,
  TASK_CONTEXT_ENTRY_TYPES,
  type TaskContextEntry,
} from './task-context.ts';

/** Marks the comment that mirrors one task context entry on a tracker shared by several machines. */
export const TASK_CONTEXT_COMMENT_MARKER = '<!-- flotilla:task-context -->';
/** Opens the hidden machine-readable block of that comment (closed by `-->`). */
const TASK_CONTEXT_DATA_OPENER = '<!-- flotilla:task-context-data';

const ROLES: readonly AgentRole[] = ['planner', 'implementor', 'reviewer'];
const TITLES: Record<TaskContextEntry['type'], string> = {
  plan_summary: 'planned the item',
  implementation_summary: 'implemented',
  fix_summary: 'fixed',
  blocked_summary: 'blocked',
  validation_failure: 'failed validation',
  no_changes: 'changed nothing',
  review_feedback: 'asked for changes',
  review_approved: 'approved',
  answers: 'was answered by a human',
  investigation_summary: 'investigated',
  refinement_summary: 'refined the item',
  investigation_report: 'reported an investigation',
};

/**
 * The comment that mirrors a task context entry (issue #28 §1) on a tracker other machines read: a short
 * readable note and the entry as JSON in a hidden block (`<` and `>` escaped, so no summary can end the HTML
 * comment early or open a second block; the last block is the one read). A fresh clone or a second machine rebuilds the item's history from these.
 */
export function buildTaskContextComment(entry: TaskContextEntry): string {
  const who = `${entry.role}${entry.runtime === null ? '' : ` (${entry.runtime})`}`;
  return [
    TASK_CONTEXT_COMMENT_MARKER,
    `**Task context** · the ${who} ${TITLES[entry.type]} · run \`${entry.sessionID}\``,
    '',
    quote(entry.summary),
    '',
    TASK_CONTEXT_DATA_OPENER,
    JSON.stringify(entry).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'),
    '-->',
  ].join('\n');
}

/**
 * The entry a task context comment carries, or null when the body is not one or its block is malformed
 * (wrong field types, an unknown type or role, another item's entry, a summary over the limit). The caller
 * decides whose comments to read: only the engine's own, never a human's or another bot's.
 */
export function parseTaskContextComment(body: string, workItemID: string): TaskContextEntry | null {
  if (!body.startsWith(TASK_CONTEXT_COMMENT_MARKER)) return null;
  const start = body.lastIndexOf(TASK_CONTEXT_DATA_OPENER);
  if (start < 0) return null;
  const end = body.indexOf('-->', start + TASK_CONTEXT_DATA_OPENER.length);
  if (end < 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.slice(start + TASK_CONTEXT_DATA_OPENER.length, end));
  } catch {
    return null;
  }
  return isTaskContextEntry(parsed) && parsed.workItemID === workItemID ? parsed : null;
}

function isTaskContextEntry(value: unknown): value is TaskContextEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.workItemID === 'string' &&
    typeof entry.sessionID === 'string' &&
    entry.id.startsWith(`${entry.sessionID}:`) &&
    ROLES.includes(entry.role as AgentRole) &&
    (entry.runtime === null || typeof entry.runtime === 'string') &&
    TASK_CONTEXT_ENTRY_TYPES.includes(entry.type as TaskContextEntry['type']) &&
    typeof entry.summary === 'string' &&
    entry.summary.length <= MAX_TASK_CONTEXT_SUMMARY_CHARS &&
    typeof entry.data === 'object' &&
    entry.data !== null &&
    !Array.isArray(entry.data) &&
    typeof entry.createdAt === 'number' &&
    Number.isFinite(entry.createdAt)
  );
}

/** The summary as a Markdown quote; `<` written as `&lt;`, so no HTML (or comment) hides or opens anything. */
function quote(text: string): string {
  return text
    .replaceAll('<', '&lt;')
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
