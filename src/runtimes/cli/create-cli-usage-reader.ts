import { z } from 'zod';
import type { AgentUsage } from '../../domain/index.ts';

/**
 * Where a preset's output reports usage: `claude-json` — the `{"type": "result", …}` object `claude -p
 * --output-format json` prints last (cost, tokens, turns of that invocation); `codex-jsonl` — the
 * `turn.completed` events of `codex exec --json` (tokens, cumulative per thread; no cost).
 */
export const CLI_USAGE_FORMATS = ['claude-json', 'codex-jsonl'] as const;
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
const CodexTurnSchema = z.object({
  type: z.literal('turn.completed'),
  usage: z.object({ input_tokens: count, cached_input_tokens: count.optional(), output_tokens: count }),
});

/** Longer lines are not usage reports (claude's result line carries the final text, so it may be long). */
const MAX_LINE_CHARS = 4_000_000;

export interface CliUsageReader {
  /** A new process starts; `continuesSession`: it resumes the previous one's session. */
  beginRound(continuesSession: boolean): void;
  /** One stdout line of the agent. */
  line(text: string): void;
  /** The run's usage so far; null when the preset reports none or nothing valid was seen. */
  usage(): AgentUsage | null;
}

/** Reads a CLI agent's usage from its stdout lines, per the preset's format; without one, always null. */
export function createCliUsageReader(format: CliUsageFormat | undefined): CliUsageReader {
  /** Rounds done; a resumed codex thread's earlier rounds (its next report includes them); this round. */
  let earlier: AgentUsage | null = null;
  let superseded: AgentUsage | null = null;
  let current: AgentUsage | null = null;
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
    },
    line(text) {
      if (format === undefined) return;
      const value = parse(text);
      if (value === null) return;
      if (format === 'claude-json') {
        const result = ClaudeResultSchema.safeParse(value);
        if (!result.success) return;
        const { usage } = result.data;
        const input =
          usage === undefined
            ? null
            : (usage.input_tokens ?? 0) +
              (usage.cache_creation_input_tokens ?? 0) +
              (usage.cache_read_input_tokens ?? 0);
        // One result per invocation: a second one in the same round replaces the first.
        current = {
          costUSD: result.data.total_cost_usd ?? null,
          inputTokens: input,
          outputTokens: usage?.output_tokens ?? null,
          turns: result.data.num_turns ?? null,
        };
        return;
      }
      const turn = CodexTurnSchema.safeParse(value);
      if (!turn.success) return;
      // Cumulative per thread: the latest report is the thread's total, the resumed rounds' included.
      const turns = (superseded?.turns ?? 0) + (current?.turns ?? 0) + 1;
      superseded = null;
      current = { ...usageOfTurn(turn.data.usage), turns };
    },
    usage: () => add(earlier, add(superseded, current)),
  };
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
