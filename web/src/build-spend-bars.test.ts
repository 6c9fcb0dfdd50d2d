import { describe, expect, it } from 'vitest';
import { buildSpendBars } from './build-spend-bars.ts';

const report = (spend: number[], dailyCapUSD: number | null) => ({
  timeZone: 'UTC',
  dailyCapUSD,
  days: spend.map((spentUSD, index) => ({
    day: `2026-11-${20 + index}`,
    spentUSD,
    scriptedUSD: 0,
    runs: index,
  })),
});

describe('buildSpendBars', () => {
  it('scales the days to the cap when no day reached it, the cap line on top', () => {
    const chart = buildSpendBars(report([0, 2, 5], 10), 30, 20);
    expect(chart.bars.map((bar) => [bar.x, bar.height, bar.y, bar.reached])).toEqual([
      [0, 0, 20, false],
      [10, 4, 16, false],
      [20, 10, 10, false],
    ]);
    expect(chart.bars[0]?.width).toBe(8);
    expect(chart.capY).toBe(0);
    expect(chart.bars[2]?.title).toBe('2026-11-22: $5.00 of $10.00 (2 runs)');
  });

  it('scales to the highest day above the cap and marks the days that reached it', () => {
    const chart = buildSpendBars(report([4, 8, 2], 4), 30, 16);
    expect(chart.maxUSD).toBe(8);
    expect(chart.bars.map((bar) => [bar.height, bar.reached])).toEqual([
      [8, true],
      [16, true],
      [4, false],
    ]);
    expect(chart.capY).toBe(8);
  });

  it('has no cap line without a cap, and keeps a tiny spend visible', () => {
    const chart = buildSpendBars(report([0.001, 100], null), 20, 10);
    expect(chart.capY).toBeNull();
    expect(chart.bars[0]?.height).toBe(1);
    expect(chart.bars[0]?.title).toBe('2026-11-20: $0.00 (0 runs)');
  });

  it('draws nothing tall when nothing was spent', () => {
    const chart = buildSpendBars(report([0, 0], 5), 20, 10);
    expect(chart.bars.every((bar) => bar.height === 0)).toBe(true);
    expect(chart.capY).toBe(0);
  });
});
