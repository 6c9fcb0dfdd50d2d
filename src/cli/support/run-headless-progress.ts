import { join } from 'node:path';
import type { ControlPlane } from '../../app/create-control-plane.ts';
import { buildSeenSnapshot } from '../../app/progress/build-seen-snapshot.ts';
import { createQuotaProgress } from '../../app/progress/create-quota-progress.ts';
import { createSeenSnapshotFile } from '../../app/progress/create-seen-snapshot-file.ts';
import { createSpendTally } from '../../app/progress/create-spend-tally.ts';
import { describeEvent } from '../../app/progress/describe-event.ts';
import { describeIdleSummary } from '../../app/progress/describe-idle-summary.ts';
import { describeStartupEvents, type StartupEvent } from '../../app/progress/describe-startup-events.ts';
import { waitUntilIdle } from '../../app/wait-until-idle.ts';
import type { FlotillaConfig } from '../../config/index.ts';
import type { StartedRun } from './start-run-control-plane.ts';
import { watchClosedOutput } from './watch-closed-output.ts';

/** How often the headless progress looks at the tracker API's budget. */
const QUOTA_PROGRESS_INTERVAL_MS = 2000;

export interface HeadlessRunOptions {
  repoRoot: string;
  config: FlotillaConfig;
  json: boolean;
  untilIdle: boolean;
}

type Emit = (line: string, data?: object) => void;

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);
const clockNow = () => new Date().toISOString().slice(11, 19);

/**
 * `flotilla run` without the dashboard: one line per meaningful event on stdout (JSON lines with `--json`)
 * until a signal, a closed stdout or, with `--until-idle`, idleness (its summary sets the exit code); then
 * everything is closed and what was seen is kept for the next start's lines.
 */
export async function runHeadlessProgress(started: StartedRun, options: HeadlessRunOptions): Promise<void> {
  const { controlPlane, apiServer, logFilePath } = started;
  const { engine } = controlPlane;
  const emit: Emit = (line, data) =>
    options.json ? out(JSON.stringify(data ?? { message: line })) : out(line);
  if (started.recoveredMessage)
    emit(started.recoveredMessage, { type: 'recovered', ...controlPlane.recovered });
  if (apiServer !== null && started.apiMessage !== null)
    emit(started.apiMessage, { type: 'serving', url: apiServer.url });
  const progress = followEvents(controlPlane, started.stateDir, options.json);
  const quotaTimer = startQuotaProgress(controlPlane, emit);
  const stop = watchStopRequests(controlPlane);
  try {
    await engine.start();
    progress.flushStartupEvents();
    const leading =
      controlPlane.leaderToken === null
        ? ''
        : ` as the cluster's controller (lease token ${controlPlane.leaderToken})`;
    emit(`flotilla running in ${options.repoRoot}${leading} (logs: ${logFilePath})`, {
      type: 'started',
      repoRoot: options.repoRoot,
      ...(controlPlane.leaderToken !== null && { leaderToken: controlPlane.leaderToken }),
    });
    if (options.untilIdle) await runUntilIdle(controlPlane, options.config, stop.requested, progress, emit);
    else await stop.untilRequested();
  } finally {
    progress.flushStartupEvents();
    if (quotaTimer !== null) clearInterval(quotaTimer);
    await apiServer?.close();
    await controlPlane.close();
    progress.saveSeen();
    stop.dispose();
    started.logger.close();
  }
}

/** `--until-idle`: waits until nothing is left to do, then says what is done or stuck and sets the exit code. */
async function runUntilIdle(
  controlPlane: ControlPlane,
  config: FlotillaConfig,
  stopRequested: () => boolean,
  progress: EventProgress,
  emit: Emit,
): Promise<void> {
  const idle = await waitUntilIdle(controlPlane, stopRequested, {
    maxCheckRounds: config.maxCheckRounds,
    mergeQueue: config.merge.queue,
  });
  const summary = describeIdleSummary(controlPlane.engine.getState(), {
    idle,
    maxAttempts: config.scheduler.maxAttempts,
    spend: progress.describeSpend(),
  });
  emit(summary.line, summary.data);
  process.exitCode = summary.exitCode;
}

interface EventProgress {
  /** Says the changes the first sync found since the last run saw them (once; later calls do nothing). */
  flushStartupEvents(): void;
  describeSpend(): string | null;
  /** Keeps what this run saw, for the next start's lines. */
  saveSeen(): void;
}

/** A line per meaningful engine event (every event as JSON with `--json`), and the spend so far. */
function followEvents(controlPlane: ControlPlane, stateDir: string, json: boolean): EventProgress {
  const { engine } = controlPlane;
  // The first sync reports every item, revision and spec as new: it is held back and compared with what
  // the last run saw, so only changes since then get a line (JSON output keeps every event).
  const seenSnapshot = createSeenSnapshotFile(join(stateDir, 'last-seen.json'));
  let startupEvents: StartupEvent[] | null = [];
  const spendTally = createSpendTally();
  engine.onEvent((event, state) => {
    spendTally.record(event, state);
    if (json) {
      out(JSON.stringify(event));
      return;
    }
    if (startupEvents !== null) {
      startupEvents.push({ event, state });
      return;
    }
    const line = describeEvent(event, state);
    if (line) out(`${clockNow()} ${line}`);
  });
  return {
    flushStartupEvents: () => {
      if (startupEvents === null) return;
      const held = startupEvents;
      startupEvents = null;
      for (const line of describeStartupEvents(held, seenSnapshot.read())) out(`${clockNow()} ${line}`);
    },
    describeSpend: () => spendTally.describe(),
    saveSeen: () => seenSnapshot.write(buildSeenSnapshot(engine.getState())),
  };
}

/** The tracker API's budget (GitHub): a line when it is first known, when requests pause, when it runs low. */
function startQuotaProgress(controlPlane: ControlPlane, emit: Emit): ReturnType<typeof setInterval> | null {
  const readQuota = controlPlane.provider.quota;
  if (readQuota === undefined) return null;
  const quotaProgress = createQuotaProgress();
  const timer = setInterval(() => {
    const quota = readQuota();
    const line = quotaProgress(quota, Date.now());
    if (line !== null) emit(`${clockNow()} ${line}`, { type: 'quota', message: line, ...quota });
  }, QUOTA_PROGRESS_INTERVAL_MS);
  timer.unref();
  return timer;
}

interface StopRequests {
  requested(): boolean;
  /** Resolves once a stop was requested. */
  untilRequested(): Promise<void>;
  dispose(): void;
}

/**
 * Ctrl-C, SIGTERM and SIGHUP (the terminal or SSH session went away) stop the control plane; a second one
 * forces the exit (130). A closed stdout stops it too.
 */
function watchStopRequests(controlPlane: ControlPlane): StopRequests {
  let stopRequested = false;
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts > 1) {
      err('flotilla run: forced exit');
      process.exit(130);
    }
    stopRequested = true;
    err('flotilla run: stopping — cancelling runs and removing worktrees (Ctrl-C again to force)');
    void controlPlane.close();
  };
  const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of stopSignals) process.on(signal, onSignal);
  // The reader of the progress lines went away (`flotilla run --headless | head -3`): nobody watches the
  // loop any more, so it stops as cleanly as on Ctrl-C, without a word (there is nowhere to say it).
  const closedOutput = watchClosedOutput(process.stdout, () => {
    stopRequested = true;
    void controlPlane.close();
  });
  return {
    requested: () => stopRequested,
    untilRequested: () =>
      new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (stopRequested) {
            clearInterval(check);
            resolve();
          }
        }, 100);
      }),
    dispose: () => {
      for (const signal of stopSignals) process.off(signal, onSignal);
      closedOutput.dispose();
    },
  };
}
