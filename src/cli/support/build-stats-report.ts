import { buildOutcomeStats } from '../../analytics/build-outcome-stats.ts';
import type { AgentNoteRecord } from '../../domain/index.ts';
import type { EngineStatePersistence, SqliteTracker } from '../../storage/index.ts';
import { loadStatsRecords } from './load-stats-records.ts';

/** The latest decisions `flotilla stats` lists (all of them: `flotilla work show <item>`). */
export const DECISIONS_SHOWN = 10;

/** What `flotilla stats --json` prints and `GET /api/stats` answers. */
export type StatsReport = ReturnType<typeof buildOutcomeStats> & {
  agentNotes: Record<AgentNoteRecord['kind'], number> & { latestDecisions: AgentNoteRecord[] };
};

/**
 * The outcome figures since `since` (null: all) from the run history and, when there is one, the local
 * tracker's item outcomes, plus what agents recorded through their tools in the period (issue #28 §2).
 */
export function buildStatsReport(
  history: EngineStatePersistence,
  tracker: Pick<SqliteTracker, 'outcomes'> | undefined,
  period: { since: number | null; now: number },
): StatsReport {
  const records = loadStatsRecords({
    listRuns: (query) => history.listRuns(query),
    outcomes: tracker?.outcomes ?? { listItemOutcomes: () => [] },
    modelsBySession: () => history.ledger.modelsBySession(),
  });
  const stats = buildOutcomeStats(records, { since: period.since, now: period.now });
  const since = period.since ?? 0;
  const counts = history.notes.count(since);
  const latestDecisions = history.notes.list('decision', { since, limit: DECISIONS_SHOWN });
  return { ...stats, agentNotes: { ...counts, latestDecisions } };
}
