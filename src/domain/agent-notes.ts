import type { AgentRole } from './agent-result.ts';

/**
 * What an agent records through Flotilla's internal tools while it works (issue #28 §2, docs/repository-memory.md):
 * `store_memory` (a fact about the repository every later agent is shown), `record_decision` (a choice
 * made on the item, and why), `log_question` (a question for a human that does not stop the run) and
 * `update_summary` (the run's live one-line progress). The engine stores them; the agent never writes
 * anywhere itself.
 */
export type AgentNote =
  | { kind: 'memory'; topic: string; text: string }
  | { kind: 'decision'; decision: string; why: string }
  | { kind: 'question'; text: string }
  | { kind: 'summary'; text: string };

export type AgentNoteKind = AgentNote['kind'];

/** Upper bounds in characters, per field: a longer value is refused, naming the field and the bound. */
export const AGENT_NOTE_LIMITS = {
  topic: 80,
  memoryText: 2000,
  decision: 500,
  why: 1000,
  question: 1000,
  summary: 200,
} as const;

/** The most notes one run may record; later ones are refused (an agent looping on a tool). */
export const MAX_NOTES_PER_RUN = 200;

/** A memory of the repository (`.flotilla/flotilla.db`, migration 013): one per topic, newest text wins. */
export interface Memory {
  id: number;
  topic: string;
  text: string;
  /** Who stored it last: an agent's role, or `human` (`flotilla memory edit`/`import`). */
  source: AgentRole | 'human';
  sessionID: string | null;
  workItemID: string | null;
  runtime: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A decision or a non-blocking question an agent recorded on its work item (null: a planner's). */
export interface AgentNoteRecord {
  id: number;
  kind: 'decision' | 'question';
  workItemID: string | null;
  sessionID: string;
  role: AgentRole;
  runtime: string | null;
  /** The decision, or the question. */
  text: string;
  /** A decision's reason; null for a question. */
  why: string | null;
  createdAt: number;
}

/** The live summary as a run keeps it: one line, control characters and runs of blanks made single spaces. */
export function toSummaryLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
}
