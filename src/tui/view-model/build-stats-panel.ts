import { buildOutcomeStats } from '../../analytics/build-outcome-stats.ts';
import { buildStatsLines } from '../../analytics/build-stats-lines.ts';
import { startOfLocalDay } from '../../analytics/local-days.ts';
import type { StatsRecords } from '../../analytics/stats-records.ts';
import type { DetailLine } from './build-detail-content.ts';

/** Days the panel covers: `flotilla stats`' default window (`--since 7d`), today included. */
export const STATS_PANEL_DAYS = 7;

/** The stats panel (`s`): the same figures and tables `flotilla stats` prints, section titles in bold. */
export function buildStatsPanel(records: StatsRecords, now: number): DetailLine[] {
  const since = startOfLocalDay(now, 1 - STATS_PANEL_DAYS);
  return buildStatsLines(buildOutcomeStats(records, { since, now })).map((line) =>
    line.bold ? { text: line.text, bold: true } : { text: line.text },
  );
}
