import type { AgentUsage } from '../domain/index.ts';
import type { RunProgressRow } from './create-run-progress.ts';

/**
 * A run's usage with what its earlier executions spent: a run requeued after its worker died was billed for
 * the killed execution's model requests too. Each execution streams its cumulative usage (create-run-progress.ts),
 * so the last row of every executor but `executor` is what that execution spent (all but its last half second);
 * those are added to `own`, field by field (a field no execution reported stays null).
 */
export function addEarlierExecutionsUsage(
  own: AgentUsage | null,
  executor: string,
  rows: readonly Pick<RunProgressRow, 'executor' | 'usage'>[],
): AgentUsage | null {
  const latest = new Map<string, AgentUsage>();
  for (const row of rows)
    if (row.usage !== null && row.executor !== executor) latest.set(row.executor, row.usage.usage);
  return [...latest.values()].reduce<AgentUsage | null>(sumUsage, own);
}

function sumUsage(total: AgentUsage | null, next: AgentUsage): AgentUsage {
  if (total === null) return next;
  const add = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
  return {
    costUSD: add(total.costUSD, next.costUSD),
    inputTokens: add(total.inputTokens, next.inputTokens),
    outputTokens: add(total.outputTokens, next.outputTokens),
    turns: add(total.turns, next.turns),
  };
}
