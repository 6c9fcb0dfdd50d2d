import type { AgentFailureReason, AgentResult, AgentUsage, ReviewHistory } from '../../domain/index.ts';
import type { RevisionReader, WorkItemReader } from '../../providers/types.ts';
import type { EngineState } from '../state-store/engine-state.ts';

export interface PlannerStartParams {
  role: 'planner';
  sessionID: string;
  specPaths: string[];
}

export interface ImplementorStartParams {
  role: 'implementor';
  sessionID: string;
  workItemID: string;
  branchName: string;
}

export interface ReviewerStartParams {
  role: 'reviewer';
  sessionID: string;
  workItemID: string;
  revisionID: string;
}

/** Plain data only, so runs can later be shipped to remote workers. */
export type AgentStartParams = PlannerStartParams | ImplementorStartParams | ReviewerStartParams;

export interface AgentRunHandle {
  /** Human-readable text as the agent produces it; ends on completion, failure and cancel. */
  output: AsyncIterable<string>;
  /** The role's validated result; rejects with an AgentRunFailure. */
  result: Promise<AgentResult>;
  logFilePath: string | null;
  /** Cost and tokens as reported by the runtime, once `result` has settled; null when unknown. */
  usage?: () => AgentUsage | null;
  /**
   * Optional signal of non-text activity (tool calls, tool results), so long silent tool runs do not
   * look stalled. Returns an unsubscribe function.
   */
  onActivity?: (listener: () => void) => () => void;
}

export interface RuntimeAdapter {
  /** The runtime's name, recorded with each run (`claude`, `scripted`: made-up costs). */
  readonly runtime?: string;
  /** Resolves once the session exists and streams; rejects on provisioning failure. */
  startAgent(params: AgentStartParams): Promise<AgentRunHandle>;
  /** Ends the session; its result rejects with reason `cancelled`. No-op for unknown ids. */
  cancelAgent(sessionID: string): void;
}

/** The typed failure a run's result rejects with. */
export class AgentRunFailure extends Error {
  readonly reason: AgentFailureReason;

  constructor(reason: AgentFailureReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentRunFailure';
    this.reason = reason;
  }
}

export function failureReasonOf(error: unknown): AgentFailureReason {
  return error instanceof AgentRunFailure ? error.reason : 'error';
}

export interface RuntimeAdapterDeps {
  workItemReader: WorkItemReader;
  revisionReader: RevisionReader;
  getState: () => EngineState;
  getReviewHistory: (revisionID: string) => Promise<ReviewHistory>;
}

export interface RuntimeAdapterConfig {
  /** Seconds before a run is cancelled with reason `timeout`. */
  maxAgentDuration: number;
  logging: { agentSessions: boolean; logsDir: string };
}

export type RuntimeAdapters = Record<AgentStartParams['role'], RuntimeAdapter>;
