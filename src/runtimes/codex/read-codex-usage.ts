import type { Usage } from '@openai/codex-sdk';
import type { AgentUsage } from '../../domain/index.ts';
import { CODEX_MODEL_PRICES, type CodexModelPrice } from './codex-prices.ts';

/**
 * One run's usage from the latest `turn.completed` usage of its thread. codex reports a thread's usage
 * cumulatively (a resumed thread's next turn includes the earlier turns' tokens), and a run owns its thread
 * from the start, so the latest report is the run's total — fix rounds are not added again. Cost: from the
 * price table when the model is listed (cached input at its own price; reasoning tokens are part of
 * `output_tokens`), else null. `turns` counts the codex turns (the first prompt and each fix round).
 */
export function readCodexUsage(input: {
  usage: Usage | null;
  turns: number;
  model: string | undefined;
  prices?: Readonly<Record<string, CodexModelPrice>>;
}): AgentUsage | null {
  const { usage } = input;
  if (usage === null) return null;
  const price = input.model === undefined ? undefined : (input.prices ?? CODEX_MODEL_PRICES)[input.model];
  const cached = Math.min(usage.cached_input_tokens, usage.input_tokens);
  const costUSD =
    price === undefined
      ? null
      : ((usage.input_tokens - cached) * price.input +
          cached * price.cachedInput +
          usage.output_tokens * price.output) /
        1_000_000;
  return {
    costUSD,
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    turns: input.turns,
  };
}

/**
 * A resumed thread's usage minus what its earlier runs already reported (`prior`, kept when the run asked a
 * human): codex's thread usage counts every turn of the thread, a run reports only its own.
 */
export function subtractCodexUsage(total: Usage, prior: Usage | null): Usage {
  if (prior === null) return total;
  const minus = (key: keyof Usage) => Math.max(0, total[key] - (prior[key] ?? 0));
  return {
    input_tokens: minus('input_tokens'),
    cached_input_tokens: minus('cached_input_tokens'),
    cache_write_input_tokens: minus('cache_write_input_tokens'),
    output_tokens: minus('output_tokens'),
    reasoning_output_tokens: minus('reasoning_output_tokens'),
  };
}
