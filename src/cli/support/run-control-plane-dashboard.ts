import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ControlPlane } from '../../app/create-control-plane.ts';
import type { Logger } from '../../logging/logger.ts';
import { runDashboard } from '../../tui/run-dashboard.tsx';
import { loadStatsRecords } from './load-stats-records.ts';
import { readRunTranscript } from './read-run-transcript.ts';

export interface ControlPlaneDashboardOptions {
  controlPlane: ControlPlane;
  logger: Logger;
  repoRoot: string;
  logFilePath: string;
  /** Shown once in the footer at start. */
  initialMessage?: string | null;
  /** Printed on a forced exit (second Ctrl-C): `flotilla run: forced exit`. */
  commandName: string;
  /**
   * What quitting stops: by default the whole control plane (engine, provider, database); the demo stops only
   * the engine, to summarise from the tracker afterwards.
   */
  stop?: () => Promise<void>;
}

/**
 * Runs the dashboard over a control plane until the user quits (or SIGTERM / SIGHUP / SIGINT arrive — Ctrl-C
 * itself reaches the dashboard as a key, in raw mode), then stops it (`options.stop`; by default closes the
 * control plane): runs cancelled, worktrees removed. The dashboard starts the engine.
 */
export async function runControlPlaneDashboard(options: ControlPlaneDashboardOptions): Promise<void> {
  const { controlPlane, logger } = options;
  const { engine } = controlPlane;
  const stop = options.stop ?? (() => controlPlane.close());
  const stopListeners = new Set<() => void>();
  const onTerminate = () => {
    for (const listener of stopListeners) listener();
  };
  const terminationSignals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
  for (const signal of terminationSignals) process.on(signal, onTerminate);
  try {
    await runDashboard({
      engine,
      logger,
      getReviewHistory: (revisionID) => controlPlane.provider.revisionReader.getReviewHistory(revisionID),
      readTextFile: (path) => readFile(path, 'utf8'),
      // As `flotilla logs`: every session of a resumed run; a cluster's remote run from its streamed copy.
      readRunTranscript: async (sessionID) =>
        (await readRunTranscript(controlPlane.persistence, sessionID)).text,
      loadAgentNotes: async (workItemID) => ({
        decisions: controlPlane.persistence.notes.listForItem(workItemID, 'decision'),
        questions: controlPlane.persistence.notes.listForItem(workItemID, 'question'),
      }),
      loadStatsRecords: async () =>
        loadStatsRecords({
          listRuns: (query) => controlPlane.persistence.listRuns(query),
          modelsBySession: () => controlPlane.persistence.ledger.modelsBySession(),
          // Item outcomes come from the local tracker; without one the statistics have the run history only.
          outcomes: controlPlane.provider.localTracker?.outcomes ?? { listItemOutcomes: () => [] },
        }),
      repositoryLabel:
        controlPlane.sandboxMode === 'off'
          ? `${basename(options.repoRoot)} — ⚠ SANDBOX OFF: agents can reach everything you can`
          : basename(options.repoRoot),
      logFilePath: options.logFilePath,
      start: () => engine.start(),
      stop,
      forceExit: () => {
        // Leave the alternate screen; stderr is still captured into the log here.
        process.stdout.write(`\u001b[?1049l${options.commandName}: forced exit\n`);
        process.exit(130);
      },
      onStopRequest: (listener) => {
        stopListeners.add(listener);
        return () => stopListeners.delete(listener);
      },
      previousCostUSD: controlPlane.persistence.totalCostUSD(),
      ...(controlPlane.provider.quota !== undefined && {
        quota: () => controlPlane.provider.quota?.() ?? null,
      }),
      ...(options.initialMessage ? { initialMessage: options.initialMessage } : {}),
    });
  } finally {
    await stop();
    for (const signal of terminationSignals) process.off(signal, onTerminate);
  }
}
