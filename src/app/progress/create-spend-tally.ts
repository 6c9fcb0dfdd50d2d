import { type AgentRun, type EngineEvent, isScriptedRun } from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/engine-state.ts';

const ENDED_EVENTS = new Set<EngineEvent['type']>([
  'plannerCompleted',
  'implementorCompleted',
  'reviewerCompleted',
  'plannerFailed',
  'implementorFailed',
  'reviewerFailed',
]);

/**
 * What the agent runs of one `flotilla run` cost, counted from their end events (the engine state keeps only
 * the latest finished runs). The scripted model server's made-up costs are kept apart and marked, as
 * everywhere else.
 */
export function createSpendTally(): {
  record(event: EngineEvent, state: EngineState): void;
  /** A finished run from a list (the demo's summary) rather than from its end event. */
  addRun(run: AgentRun): void;
  /** `3 agent runs, $0.0421` / `7 agent runs, $0.0112 (scripted)`; null before any run ended. */
  describe(): string | null;
} {
  let runs = 0;
  let spentUSD = 0;
  let scriptedUSD = 0;
  const add = (costUSD: number, scripted: boolean) => {
    runs += 1;
    if (scripted) scriptedUSD += costUSD;
    else spentUSD += costUSD;
  };
  return {
    record(event, state) {
      if (!ENDED_EVENTS.has(event.type) || !('usage' in event)) return;
      add(event.usage?.costUSD ?? 0, isScriptedRun(state.agentRuns[event.sessionID]));
    },
    addRun(run) {
      add(run.usage?.costUSD ?? 0, isScriptedRun(run));
    },
    describe() {
      if (runs === 0) return null;
      const amounts = [
        ...(spentUSD > 0 || scriptedUSD === 0 ? [`$${spentUSD.toFixed(4)}`] : []),
        ...(scriptedUSD > 0 ? [`$${scriptedUSD.toFixed(4)} (scripted)`] : []),
      ];
      return `${runs} agent run${runs === 1 ? '' : 's'}, ${amounts.join(' + ')}`;
    },
  };
}
