import { z } from 'zod';
import type { AgentUsage } from '../../domain/index.ts';

/**
 * Where a preset's output reports usage: `claude-stream-json` — the messages `claude -p --output-format
 * stream-json --verbose` prints, one per line: every assistant message carries its request's model and
 * tokens (live, priced with `findModelPrice`), the `result` message last the invocation's own cost, tokens
 * and turns; `claude-json` — only that result object (`--output-format json`); `codex-jsonl` — the
 * `turn.completed` events of `codex exec --json` (tokens, cumulative per thread, once per turn; no cost).
 */
export const CLI_USAGE_FORMATS = ['claude-stream-json', 'claude-json', 'codex-jsonl'] as const;
export type CliUsageFormat = (typeof CLI_USAGE_FORMATS)[number];

/** Agent output is untrusted: bounded, non-negative numbers only (no text is ever kept). */
const count = z.number().int().min(0).max(1e12);
const ClaudeResultSchema = z.object({
  type: z.literal('result'),
  total_cost_usd: z.number().min(0).max(1e5).optional(),
  num_turns: count.optional(),
  usage: z
    .object({
      input_tokens: count.optional(),
      cache_creation_input_tokens: count.optional(),
      cache_read_input_tokens: count.optional(),
      output_tokens: count.optional(),
    })
    .optional(),
});
const AssistantMessageSchema = z.object({
  type: z.literal('assistant'),
  message: z.object({
    id: z.string().max(200),
    model: z.string().max(200).optional(),
    usage: z.object({
      input_tokens: count.optional(),
      cache_creation_input_tokens: count.optional(),
      cache_read_input_tokens: count.optional(),
      output_tokens: count.optional(),
    }),
  }),
});
const CodexTurnSchema = z.object({
  type: z.literal('turn.completed'),
  usage: z.object({ input_tokens: count, cached_input_tokens: count.optional(), output_tokens: count }),
});

/** Longer lines are not usage reports (claude's result line carries the final text, so it may be long). */
const MAX_LINE_CHARS = 4_000_000;

/** USD per million tokens of one model (the Claude runtime's price table has this shape). */
export interface CliModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The run's usage after a line that changed it, and the model of the latest request when known. */
export interface CliLiveUsage {
  usage: AgentUsage;
  model: string | null;
}

export interface CliUsageReader {
  /** A new process starts; `continuesSession`: it resumes the previous one's session. */
  beginRound(continuesSession: boolean): void;
  /** One stdout line of the agent; the run's usage when the line changed it (the live signal), else null. */
  line(text: string): CliLiveUsage | null;
  /** The run's usage so far; null when the preset reports none or nothing valid was seen. */
  usage(): AgentUsage | null;
}

interface RequestTokens {
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Reads a CLI agent's usage from its stdout lines, per the preset's format; without one, always null.
 * `findModelPrice` prices the per-request tokens of `claude-stream-json` while the invocation runs (an
 * unknown model: null cost, never a guess); the invocation's own `total_cost_usd` replaces the estimate.
 */
export function createCliUsageReader(
  format: CliUsageFormat | undefined,
  options: { findModelPrice?: (model: string) => CliModelPrice | null } = {},
): CliUsageReader {
  /** Rounds done; a resumed codex thread's earlier rounds (its next report includes them); this round. */
  let earlier: AgentUsage | null = null;
  let superseded: AgentUsage | null = null;
  let current: AgentUsage | null = null;
  /** This round's requests as its assistant messages report them (claude-stream-json), by message id. */
  let requests = new Map<string, RequestTokens>();
  let model: string | null = null;
  const total = () => add(earlier, add(superseded, current));
  const priceRequests = (): AgentUsage => {
    let cost: number | null = 0;
    let input = 0;
    let output = 0;
    for (const request of requests.values()) {
      input += request.input + request.cacheRead + request.cacheWrite;
      output += request.output;
      const price = request.model === null ? null : (options.findModelPrice?.(request.model) ?? null);
      cost =
        price === null || cost === null
          ? null
          : cost +
            (request.input * price.input +
              request.output * price.output +
              request.cacheRead * price.cacheRead +
              request.cacheWrite * price.cacheWrite) /
              1_000_000;
    }
    return { costUSD: cost, inputTokens: input, outputTokens: output, turns: requests.size };
  };
  const parse = (text: string): unknown => {
    const trimmed = text.trim();
    if (!trimmed.startsWith('{') || trimmed.length > MAX_LINE_CHARS) return null;
    try {
      return JSON.parse(trimmed);
    } catch {
      return null;
    }
  };
  return {
    beginRound(continuesSession) {
      if (continuesSession && format === 'codex-jsonl') superseded = add(superseded, current);
      else {
        earlier = add(earlier, add(superseded, current));
        superseded = null;
      }
      current = null;
      requests = new Map();
    },
    line(text) {
      if (format === undefined) return null;
      const value = parse(text);
      if (value === null) return null;
      const before = JSON.stringify(total());
      read(value);
      const after = total();
      return after !== null && JSON.stringify(after) !== before ? { usage: after, model } : null;
    },
    usage: total,
  };

  function read(value: unknown): void {
    if (format === 'claude-stream-json') {
      const message = AssistantMessageSchema.safeParse(value);
      if (message.success) {
        const { id, usage } = message.data.message;
        if (message.data.message.model === '<synthetic>') return;
        const known = requests.get(id);
        // One request may come as several messages (one per content block): counts only grow.
        const next: RequestTokens = {
          model: message.data.message.model ?? known?.model ?? null,
          input: Math.max(known?.input ?? 0, usage.input_tokens ?? 0),
          output: Math.max(known?.output ?? 0, usage.output_tokens ?? 0),
          cacheRead: Math.max(known?.cacheRead ?? 0, usage.cache_read_input_tokens ?? 0),
          cacheWrite: Math.max(known?.cacheWrite ?? 0, usage.cache_creation_input_tokens ?? 0),
        };
        requests.set(id, next);
        if (next.model !== null) model = next.model;
        current = priceRequests();
        return;
      }
    }
    if (format === 'claude-json' || format === 'claude-stream-json') {
      const result = ClaudeResultSchema.safeParse(value);
      if (!result.success) return;
      const { usage } = result.data;
      const input =
        usage === undefined
          ? null
          : (usage.input_tokens ?? 0) +
            (usage.cache_creation_input_tokens ?? 0) +
            (usage.cache_read_input_tokens ?? 0);
      // One result per invocation (the CLI's own figures replace the live estimate); a second one in the
      // same round replaces the first.
      current = {
        costUSD: result.data.total_cost_usd ?? null,
        inputTokens: input,
        outputTokens: usage?.output_tokens ?? null,
        turns: result.data.num_turns ?? null,
      };
      return;
    }
    if (format !== 'codex-jsonl') return;
    const turn = CodexTurnSchema.safeParse(value);
    if (!turn.success) return;
    // Cumulative per thread: the latest report is the thread's total, the resumed rounds' included.
    const turns = (superseded?.turns ?? 0) + (current?.turns ?? 0) + 1;
    superseded = null;
    current = { ...usageOfTurn(turn.data.usage), turns };
  }
}

function usageOfTurn(usage: z.infer<typeof CodexTurnSchema>['usage']): AgentUsage {
  return { costUSD: null, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, turns: null };
}

function sum(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function add(a: AgentUsage | null, b: AgentUsage | null): AgentUsage | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    costUSD: sum(a.costUSD, b.costUSD),
    inputTokens: sum(a.inputTokens, b.inputTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    turns: sum(a.turns, b.turns),
  };
}
