import type { AgentNote, AgentRole } from '../../domain/index.ts';
import { type AgentNoteParse, parseAgentToolCall } from '../../engine/runtime-contract/index.ts';

/** One run's notes (issue #28 §2): what its agent recorded through Flotilla's internal tools. */
export interface AgentNotes {
  /** Validates one tool call and, when valid, hands the note to the listeners; the parse says what was wrong. */
  record(tool: string, input: unknown): AgentNoteParse;
  /** The handle's `onNote`: replays the notes recorded so far, then each new one. */
  onNote(listener: (note: AgentNote) => void): () => void;
}

export function createAgentNotes(role: AgentRole): AgentNotes {
  const recorded: AgentNote[] = [];
  const listeners = new Set<(note: AgentNote) => void>();
  return {
    record(tool, input) {
      const parsed = parseAgentToolCall(tool, input, role);
      if (parsed.ok) {
        recorded.push(parsed.note);
        for (const listener of listeners) listener(parsed.note);
      }
      return parsed;
    },
    onNote(listener) {
      for (const note of recorded) listener(note);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
