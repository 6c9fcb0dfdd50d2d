import type { AgentUsage } from '../../domain/index.ts';
import { isRecord } from '../../shared/is-record.ts';
import { findClaudeModelPrice } from './claude-prices.ts';

interface RequestUsage {
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface LiveUsageMeter {
  /**
   * Reads one SDK message (stream events included); returns the session's cumulative usage when this
   * message changed it (a request started or ended), else null.
   */
  observe(message: unknown): { usage: AgentUsage; model: string | null } | null;
}

const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * The live usage of one SDK session, from the per-request token counts the stream carries: `message_start`
 * (model, input and cache tokens) and `message_delta` (the final output tokens) stream events, and the
 * assistant messages (same message id; their output count is the one at the start). Each request counts
 * once, keyed by its message id; its cost comes from the model's price (claude-prices.ts), null when the
 * price is unknown. Subagents' requests count too: they are billed to the session.
 */
export function createLiveUsageMeter(): LiveUsageMeter {
  const requests = new Map<string, RequestUsage>();
  let lastModel: string | null = null;

  function update(id: string, model: unknown, usage: unknown, finalOutput = false): boolean {
    // The CLI's own placeholder messages (`<synthetic>`) are not model requests and cost nothing.
    if (!isRecord(usage) || model === '<synthetic>') return false;
    const known = requests.get(id) ?? { model: null, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    // Counts only grow within a request (a later message may omit a field), except the final output count.
    const next: RequestUsage = {
      model: typeof model === 'string' ? model : known.model,
      input: Math.max(known.input, number(usage.input_tokens) ?? 0),
      // message_start's output count is a placeholder; message_delta's is the request's final one.
      output: finalOutput
        ? (number(usage.output_tokens) ?? known.output)
        : Math.max(known.output, number(usage.output_tokens) ?? 0),
      cacheRead: Math.max(known.cacheRead, number(usage.cache_read_input_tokens) ?? 0),
      cacheWrite: Math.max(known.cacheWrite, number(usage.cache_creation_input_tokens) ?? 0),
    };
    if (next.model !== null) lastModel = next.model;
    const same =
      requests.has(id) &&
      known.model === next.model &&
      known.input === next.input &&
      known.output === next.output &&
      known.cacheRead === next.cacheRead &&
      known.cacheWrite === next.cacheWrite;
    requests.set(id, next);
    return !same;
  }

  // The request each stream is in (a subagent's stream, keyed by its parent tool use, interleaves).
  const currentStreamID = new Map<unknown, string>();

  function total(): { usage: AgentUsage; model: string | null } {
    let cost: number | null = 0;
    let input = 0;
    let output = 0;
    for (const request of requests.values()) {
      input += request.input + request.cacheRead + request.cacheWrite;
      output += request.output;
      const price = request.model === null ? null : findClaudeModelPrice(request.model);
      if (price === null || cost === null) {
        cost = null;
        continue;
      }
      cost +=
        (request.input * price.input +
          request.output * price.output +
          request.cacheRead * price.cacheRead +
          request.cacheWrite * price.cacheWrite) /
        1_000_000;
    }
    return {
      usage: { costUSD: cost, inputTokens: input, outputTokens: output, turns: requests.size },
      model: lastModel,
    };
  }

  return {
    observe(message) {
      if (!isRecord(message)) return null;
      let changed = false;
      if (message.type === 'stream_event' && isRecord(message.event)) {
        const event = message.event;
        const stream = message.parent_tool_use_id ?? null;
        const startedID = isRecord(event.message) ? event.message.id : undefined;
        if (event.type === 'message_start' && isRecord(event.message) && typeof startedID === 'string') {
          currentStreamID.set(stream, startedID);
          changed = update(startedID, event.message.model, event.message.usage);
        } else if (event.type === 'message_delta') {
          const id = currentStreamID.get(stream);
          if (id !== undefined) changed = update(id, undefined, event.usage, true);
        }
      } else if (message.type === 'assistant' && isRecord(message.message)) {
        const inner = message.message;
        if (typeof inner.id === 'string') changed = update(inner.id, inner.model, inner.usage);
      }
      return changed ? total() : null;
    },
  };
}
