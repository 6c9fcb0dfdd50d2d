import { type AgentRun, isAgentRunActive } from '../../domain/index.ts';

/**
 * Finished runs kept in the engine state. Complete run history lives in durable storage; the state keeps
 * every active run and the most recent finished ones (enough for retry hints and the dashboard). Bounding
 * it keeps every state update and run lookup cheap on a long-lived engine. Pruning happens in bursts (down
 * to the limit once a quarter more has accumulated), so its cost is spread over many runs.
 */
export const MAX_FINISHED_RUNS = 200;

export function pruneFinishedRuns(
  agentRuns: Record<string, AgentRun>,
  limit: number = MAX_FINISHED_RUNS,
): Record<string, AgentRun> {
  const finished = Object.values(agentRuns).filter((run) => !isAgentRunActive(run));
  if (finished.length <= limit + Math.ceil(limit / 4)) return agentRuns;
  const keep = new Set(
    finished
      .sort((a, b) => (b.endedAt ?? b.requestedAt) - (a.endedAt ?? a.requestedAt))
      .slice(0, limit)
      .map((run) => run.sessionID),
  );
  const pruned: Record<string, AgentRun> = {};
  for (const [sessionID, run] of Object.entries(agentRuns)) {
    if (isAgentRunActive(run) || keep.has(sessionID)) pruned[sessionID] = run;
  }
  return pruned;
}
