import type { AgentUsage } from '../../domain/index.ts';

function add(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

/** Usage of several sessions of one run (validation rounds): each field summed; unknown only if all are. */
export function sumUsage(a: AgentUsage | null, b: AgentUsage | null): AgentUsage | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    costUSD: add(a.costUSD, b.costUSD),
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    turns: add(a.turns, b.turns),
  };
}
