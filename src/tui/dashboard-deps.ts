import type { StatsRecords } from '../analytics/stats-records.ts';
import type { ReviewHistory } from '../domain/index.ts';
import type { Engine } from '../engine/create-engine.ts';
import type { StreamBuffers } from './streams/create-stream-buffers.ts';
import type { ItemAgentNotes } from './view-model/build-agent-note-lines.ts';
import type { TrackerQuota } from './view-model/build-quota-summary.ts';

/** The engine surface the dashboard uses: it reads state and streams, and acts only by enqueueing events. */
export type DashboardEngine = Pick<
  Engine,
  | 'getState'
  | 'subscribe'
  | 'onEvent'
  | 'enqueue'
  | 'refresh'
  | 'schedulerStatus'
  | 'getWorkItemBody'
  | 'getRevisionFiles'
  | 'getAgentStream'
>;

export interface DashboardDeps {
  engine: DashboardEngine;
  streams: StreamBuffers;
  /** Reviews and inline comments of a revision (read-only provider access). */
  getReviewHistory(revisionID: string): Promise<ReviewHistory>;
  /** The decisions and logged questions agents recorded on an item; absent: the pane does not show them. */
  loadAgentNotes?(workItemID: string): Promise<ItemAgentNotes>;
  /** The run history and the tracker's item history, for the stats panel (`s`); absent: not available. */
  loadStatsRecords?(): Promise<StatsRecords>;
  /** Reads transcripts and checks logs. */
  readTextFile(path: string): Promise<string>;
  /**
   * A run's transcript as `flotilla logs` reads it: every session of a resumed run, and (cluster mode) a run
   * on another machine from what its worker streamed. Absent: the run's own file only.
   */
  readRunTranscript?(sessionID: string): Promise<string>;
  /** Shown in the header: the repository and where the log file is. */
  repositoryLabel: string;
  logFilePath: string;
  /** Starts the engine; the dashboard shows "Starting…" until it resolves. */
  start(): Promise<void>;
  /** Stops the engine (cancels runs, removes worktrees); the dashboard exits when it resolves. */
  stop(): Promise<void>;
  /** A second Ctrl-C while stopping: leave now. */
  forceExit(): void;
  /** Stop requests from outside the keyboard (SIGTERM): the dashboard shuts down as if quit was confirmed. */
  onStopRequest?(listener: () => void): () => void;
  /** The cost of the runs recorded before the dashboard started; the header adds it as `(… all runs)`. */
  previousCostUSD?: number | undefined;
  /** The tracker API's rate-limit budget for the header (GitHub); absent for the local provider. */
  quota?(): TrackerQuota | null;
  /** Shown once at start (e.g. what crash recovery found). */
  initialMessage?: string | undefined;
  now?: () => number;
}
