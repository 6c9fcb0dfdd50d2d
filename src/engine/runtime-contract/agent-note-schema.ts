import { z } from 'zod';
import { AGENT_NOTE_LIMITS, type AgentNote, type AgentRole } from '../../domain/index.ts';
import { formatZodIssues } from '../../shared/format-zod-issues.ts';

/** A text field; its issues are prefixed with the field's name (formatZodIssues). */
const text = (max: number) =>
  z
    .string({ error: 'expected a string' })
    .trim()
    .min(1, 'expected a non-empty text')
    .max(max, `at most ${max} characters`);

/**
 * The internal tools every agent gets (issue #28 §2), by the name agents call them: their inputs, the same
 * on every runtime (the Claude SDK's MCP tools, `flotilla agent <verb>` for agents that run commands).
 */
export const AGENT_TOOL_INPUTS = {
  store_memory: z.strictObject({
    topic: text(AGENT_NOTE_LIMITS.topic),
    text: text(AGENT_NOTE_LIMITS.memoryText),
  }),
  record_decision: z.strictObject({
    decision: text(AGENT_NOTE_LIMITS.decision),
    why: text(AGENT_NOTE_LIMITS.why),
  }),
  log_question: z.strictObject({ text: text(AGENT_NOTE_LIMITS.question) }),
  update_summary: z.strictObject({ text: text(AGENT_NOTE_LIMITS.summary) }),
} as const;

export type AgentToolName = keyof typeof AGENT_TOOL_INPUTS;

export const AGENT_TOOL_NAMES = Object.keys(AGENT_TOOL_INPUTS) as AgentToolName[];

/** What each tool is for, as agents are told (tool descriptions, the `flotilla agent` instructions). */
export const AGENT_TOOL_DESCRIPTIONS: Record<AgentToolName, string> = {
  store_memory:
    'Store a fact about this repository that later agents should know (build quirks, conventions, pitfalls). ' +
    'One memory per topic: storing a topic again replaces its text. Never store code changes or secrets.',
  record_decision:
    'Record a decision you made on this task and why, for the humans and the agents after you.',
  log_question:
    'Log a question for a human that does not block you: keep working on your best assumption; they see it later.',
  update_summary: 'Say in one line what you are doing now (shown live to the humans watching the run).',
};

const KIND_OF: Record<AgentToolName, AgentNote['kind']> = {
  store_memory: 'memory',
  record_decision: 'decision',
  log_question: 'question',
  update_summary: 'summary',
};

export type AgentNoteParse = { ok: true; note: AgentNote } | { ok: false; error: string };

/**
 * Lines that make a text a patch: a planner's or reviewer's note must not carry code changes for a later
 * agent to apply (those roles change no code; their notes are knowledge, not work).
 */
const PATCH_LINE = /^(diff --git |--- a\/|\+\+\+ b\/|@@ -\d+(,\d+)? \+\d+(,\d+)? @@)/m;

/**
 * Validates one tool call of a running agent (untrusted input): the tool's fields, trimmed and within their
 * bounds, and for a planner or reviewer no patch. Errors name the tool, the field and what was expected.
 */
export function parseAgentToolCall(tool: string, input: unknown, role: AgentRole): AgentNoteParse {
  if (!Object.hasOwn(AGENT_TOOL_INPUTS, tool))
    return { ok: false, error: `unknown tool '${tool}': expected one of ${AGENT_TOOL_NAMES.join(', ')}` };
  const name = tool as AgentToolName;
  const parsed = AGENT_TOOL_INPUTS[name].safeParse(input);
  if (!parsed.success)
    return { ok: false, error: `${name}: ${formatZodIssues(parsed.error.issues).join('; ')}` };
  const fields = parsed.data as Record<string, string>;
  if (role !== 'implementor' && Object.values(fields).some((value) => PATCH_LINE.test(value)))
    return {
      ok: false,
      error: `${name}: a ${role} changes no code, so its notes cannot carry a patch (diff lines found)`,
    };
  const kind = KIND_OF[name];
  switch (kind) {
    case 'memory':
      return { ok: true, note: { kind, topic: fields.topic ?? '', text: fields.text ?? '' } };
    case 'decision':
      return { ok: true, note: { kind, decision: fields.decision ?? '', why: fields.why ?? '' } };
    case 'question':
    case 'summary':
      return { ok: true, note: { kind, text: fields.text ?? '' } };
  }
}

/** The tool an AgentNote came from: the engine re-validates notes a runtime hands over with it. */
export function toolOfNote(note: AgentNote): { tool: AgentToolName; input: Record<string, string> } {
  switch (note.kind) {
    case 'memory':
      return { tool: 'store_memory', input: { topic: note.topic, text: note.text } };
    case 'decision':
      return { tool: 'record_decision', input: { decision: note.decision, why: note.why } };
    case 'question':
      return { tool: 'log_question', input: { text: note.text } };
    case 'summary':
      return { tool: 'update_summary', input: { text: note.text } };
  }
}
