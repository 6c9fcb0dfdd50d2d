import type { StopReason, UsageSpec } from './scenario-schema.ts';
import type { StepReply } from './scenario-types.ts';

export type AssistantBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** A complete Messages API response (the non-streaming answer; the SSE stream is derived from it). */
export interface AssistantMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AssistantBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  usage: Usage;
}

export const DEFAULT_USAGE: Usage = {
  input_tokens: 100,
  output_tokens: 20,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

/** The default usage with what the step sets (a field the step leaves out keeps its default). */
export function buildUsage(spec: UsageSpec | undefined): Usage {
  const set = Object.entries(spec ?? {}).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_USAGE, ...Object.fromEntries(set) };
}

/**
 * Builds the assistant message for a reply: `text` first, then `content`, then the `StructuredOutput`
 * tool call. Tool-use ids are `toolu_scripted_<seq>_<index>` unless given. The stop reason defaults to
 * `tool_use` when there is a tool call, else `end_turn`.
 */
export function buildAssistantMessage(reply: StepReply, model: string, seq: number): AssistantMessage {
  const blocks: AssistantBlock[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const block of reply.content ?? []) {
    if (block.type === 'text') blocks.push({ type: 'text', text: block.text });
    else
      blocks.push({
        type: 'tool_use',
        id: block.id ?? toolUseId(seq, blocks.length),
        name: block.name,
        input: block.input,
      });
  }
  if (reply.structuredOutput !== undefined) {
    blocks.push({
      type: 'tool_use',
      id: toolUseId(seq, blocks.length),
      name: 'StructuredOutput',
      input: reply.structuredOutput,
    });
  }
  const hasToolUse = blocks.some((block) => block.type === 'tool_use');
  return {
    id: `msg_scripted_${seq}`,
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: reply.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: buildUsage(reply.usage),
  };
}

function toolUseId(seq: number, index: number): string {
  return `toolu_scripted_${seq}_${index}`;
}
