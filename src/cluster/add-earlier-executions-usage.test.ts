import { describe, expect, it } from 'vitest';
import type { AgentUsage } from '../domain/index.ts';
import { addEarlierExecutionsUsage } from './add-earlier-executions-usage.ts';

const usage = (costUSD: number, turns: number | null = 1): AgentUsage => ({
  costUSD,
  inputTokens: 10 * costUSD,
  outputTokens: null,
  turns,
});
const row = (executor: string, spent: AgentUsage | null) => ({
  executor,
  usage: spent === null ? null : { usage: spent, model: null },
});

describe('addEarlierExecutionsUsage', () => {
  it("adds each earlier executor's last cumulative usage to the finishing one's", () => {
    const rows = [row('a', usage(1)), row('a', usage(3, 2)), row('b', usage(2)), row('a', null)];
    expect(addEarlierExecutionsUsage(usage(2), 'b', rows)).toEqual({
      costUSD: 5,
      inputTokens: 50,
      outputTokens: null,
      turns: 3,
    });
  });

  it('is the own usage when no other executor streamed any, and the earlier ones alone when it has none', () => {
    expect(addEarlierExecutionsUsage(usage(2), 'b', [row('b', usage(1))])).toEqual(usage(2));
    expect(addEarlierExecutionsUsage(null, 'b', [row('a', usage(4))])).toEqual(usage(4));
    expect(addEarlierExecutionsUsage(null, 'b', [])).toBeNull();
  });
});
