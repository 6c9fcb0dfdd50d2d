import type { DailySpendReport } from './api-client.ts';

export interface SpendBar {
  day: string;
  spentUSD: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The day reached the daily cap (drawn red). */
  reached: boolean;
  /** The bar's tooltip: `2026-11-27: $1.20 of $5.00 (3 runs)`. */
  title: string;
}

export interface SpendChart {
  width: number;
  height: number;
  bars: SpendBar[];
  /** The daily cap's line, from the top; null without a cap. */
  capY: number | null;
  /** The scale's top in USD (the larger of the highest day and the cap). */
  maxUSD: number;
}

const GAP = 2;
/** A day with any spend gets at least this many pixels, so it shows beside the empty ones. */
const MIN_VISIBLE = 1;

const usd = (value: number) => `$${value.toFixed(2)}`;

/**
 * The spend-per-day chart's geometry (plain SVG, drawn by spend-chart.tsx): one bar per day, oldest on the
 * left, scaled to the larger of the highest day and the daily cap, with the cap as a line.
 */
export function buildSpendBars(report: DailySpendReport, width: number, height: number): SpendChart {
  const cap = report.dailyCapUSD;
  const highest = Math.max(0, ...report.days.map((day) => day.spentUSD));
  const maxUSD = Math.max(highest, cap ?? 0);
  const count = Math.max(1, report.days.length);
  const step = width / count;
  const barWidth = Math.max(1, step - GAP);
  const bars = report.days.map((day, index) => {
    const scaled = maxUSD === 0 ? 0 : (day.spentUSD / maxUSD) * height;
    const barHeight = day.spentUSD > 0 ? Math.max(MIN_VISIBLE, scaled) : 0;
    return {
      day: day.day,
      spentUSD: day.spentUSD,
      x: index * step,
      y: height - barHeight,
      width: barWidth,
      height: barHeight,
      reached: cap !== null && day.spentUSD >= cap,
      title: `${day.day}: ${usd(day.spentUSD)}${cap === null ? '' : ` of ${usd(cap)}`} (${day.runs} run${day.runs === 1 ? '' : 's'})`,
    };
  });
  return {
    width,
    height,
    bars,
    capY: cap === null || maxUSD === 0 ? null : height - (cap / maxUSD) * height,
    maxUSD,
  };
}
