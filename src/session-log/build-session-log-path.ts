import { join } from 'node:path';
import type { AgentRole } from '../domain/index.ts';

export interface SessionLogPathParams {
  logsDir: string;
  /** Epoch milliseconds when the session started. */
  startedAt: number;
  role: AgentRole;
  sessionID: string;
  workItemID?: string;
}

/**
 * `{logsDir}/{startedAt}-{role}[-{workItemID}]-{first 8 chars of the session id}.log` — the reference
 * naming (docs/reference-behaviour.md §9), made unique by the session id so two runs in the same millisecond never share a file.
 */
export function buildSessionLogPath({
  logsDir,
  startedAt,
  role,
  sessionID,
  workItemID,
}: SessionLogPathParams): string {
  const parts = [String(startedAt), role];
  if (workItemID !== undefined) parts.push(safeFileNamePart(workItemID));
  parts.push(safeFileNamePart(sessionID.slice(0, 8)));
  return join(logsDir, `${parts.join('-')}.log`);
}

/** Ids come from providers; keep them from adding path separators or odd characters to a file name. */
function safeFileNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._]/g, '_');
}
