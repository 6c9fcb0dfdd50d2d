import type { DailySpendReport } from './api-client.ts';
import { buildSpendBars } from './build-spend-bars.ts';

const WIDTH = 168;
const HEIGHT = 26;

/** Spend per day (the last 14) as plain SVG bars against the daily cap's line; a bar's tooltip has the day. */
export function SpendChart({ report }: { report: DailySpendReport | null }) {
  if (report === null || report.days.length === 0) return null;
  const chart = buildSpendBars(report, WIDTH, HEIGHT);
  const first = report.days[0]?.day ?? '';
  const last = report.days.at(-1)?.day ?? '';
  return (
    <span class="spend" title="spend per day, the last 14 days (hover a bar)">
      <span class="dim">{report.days.length} d</span>{' '}
      <svg
        class="spend-chart"
        data-testid="spend-chart"
        width={WIDTH}
        height={HEIGHT}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`spend per day, ${first} to ${last}${report.dailyCapUSD === null ? '' : `, daily cap $${report.dailyCapUSD.toFixed(2)}`}`}
      >
        <rect class="spend-ground" x={0} y={HEIGHT - 1} width={WIDTH} height={1} />
        {chart.bars.map((bar) => (
          <rect
            key={bar.day}
            class={bar.reached ? 'spend-bar reached' : 'spend-bar'}
            data-day={bar.day}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
          >
            <title>{bar.title}</title>
          </rect>
        ))}
        {chart.capY !== null && <line class="spend-cap" x1={0} x2={WIDTH} y1={chart.capY} y2={chart.capY} />}
      </svg>
    </span>
  );
}
