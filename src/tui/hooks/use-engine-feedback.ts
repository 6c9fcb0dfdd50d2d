import { useEffect, useState } from 'react';
import { type EngineEvent, isScriptedRun } from '../../domain/index.ts';
import type { DashboardEngine } from '../dashboard-deps.ts';
import { summarizeFeedback } from '../view-model/summarize-feedback.ts';

/**
 * Feedback on what the user (or the engine) did: refusals and failures are said in the footer, and the cost
 * of runs finished since the dashboard started adds up. Scripted runs report made-up costs: they are left out
 * of the total, and `scriptedCostsLeftOut` tells the header to say so.
 */
export function useEngineFeedback(
  engine: DashboardEngine,
  say: (text: string, tone: 'info' | 'error') => void,
): { costUSD: number; scriptedCostsLeftOut: boolean } {
  const [costUSD, setCostUSD] = useState(0);
  const [scriptedCostsLeftOut, setScriptedCostsLeftOut] = useState(false);
  useEffect(
    () =>
      engine.onEvent((event: EngineEvent, after) => {
        if ('usage' in event && typeof event.usage?.costUSD === 'number') {
          const cost = event.usage.costUSD;
          if (isScriptedRun(after.agentRuns[event.sessionID])) setScriptedCostsLeftOut(true);
          else setCostUSD((total) => total + cost);
        }
        const feedback = summarizeFeedback(event);
        if (feedback) say(feedback.text, feedback.tone);
      }),
    [engine, say],
  );
  return { costUSD, scriptedCostsLeftOut };
}
