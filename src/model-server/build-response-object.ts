import { buildUsage } from './build-assistant-message.ts';
import type { StepReply } from './scenario-types.ts';

export type ResponseOutputItem =
  | {
      id: string;
      type: 'message';
      role: 'assistant';
      status: 'completed';
      content: { type: 'output_text'; text: string; annotations: [] }[];
    }
  | {
      id: string;
      type: 'function_call';
      status: 'completed';
      call_id: string;
      name: string;
      /** A namespaced tool's namespace (codex's MCP servers: `mcp__<server>`). */
      namespace?: string;
      arguments: string;
    };

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** A complete OpenAI Responses API response (the non-streaming answer; the SSE stream is derived from it). */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'completed';
  model: string;
  output: ResponseOutputItem[];
  usage: ResponseUsage;
  error: null;
  incomplete_details: null;
}

/**
 * The Responses API form of a step's reply: each text block an assistant `message` item, each `tool_use`
 * block a `function_call` item (`arguments` = its input as JSON, `call_id` = its `id` or a generated one,
 * `namespace` when the block names one),
 * and `structuredOutput` a last message whose text is the JSON (codex takes the final message as the
 * structured output). Usage: `input_tokens`, `output_tokens`, `cache_read_input_tokens` → `cached_tokens`.
 */
export function buildResponseObject(reply: StepReply, model: string, seq: number): ResponseObject {
  const output: ResponseOutputItem[] = [];
  const addMessage = (text: string): void => {
    output.push({
      id: `msg_scripted_${seq}_${output.length}`,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  };
  if (reply.text !== undefined) addMessage(reply.text);
  for (const block of reply.content ?? []) {
    if (block.type === 'text') {
      addMessage(block.text);
      continue;
    }
    output.push({
      id: `fc_scripted_${seq}_${output.length}`,
      type: 'function_call',
      status: 'completed',
      call_id: block.id ?? `call_scripted_${seq}_${output.length}`,
      name: block.name,
      ...(block.namespace !== undefined && { namespace: block.namespace }),
      arguments: JSON.stringify(block.input),
    });
  }
  if (reply.structuredOutput !== undefined) addMessage(JSON.stringify(reply.structuredOutput));
  const usage = buildUsage(reply.usage);
  return {
    id: `resp_scripted_${seq}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model,
    output,
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cache_read_input_tokens },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
    error: null,
    incomplete_details: null,
  };
}
