import type {
  AgentFailureReason,
  AgentNote,
  AgentRole,
  AgentRunOutcome,
  AgentUsage,
} from '../domain/index.ts';
import type { AgentStartParams } from '../engine/runtime-contract/index.ts';

/**
 * Which of the worker's runtimes plays a run: the role's configured runtime, or the one a work item's
 * `runtime:<name>` label chose (the worker resolves both from its own copy of the configuration).
 */
export type RuntimeKey = { role: AgentRole } | { choice: string };

/** What the controller enqueues for one agent run: plain data only (it is stored in PostgreSQL). */
export interface AgentRunMessage {
  /** The start params exactly as the engine gave them to the runtime contract. */
  params: AgentStartParams;
  runtime: RuntimeKey;
  /** The controller's default-branch commit at enqueue time: the worker's worktrees start from it. */
  baseCommit: string;
  /**
   * Which session of its run this is (a resume after a human's answers is one more; absent: 1). The params
   * carry no `resume` (create-remote-runtime.ts restarts it), so the number crosses here.
   */
  sessionNumber?: number;
}

interface ReplyCommon {
  /** The executor that ran it (a worker's slot). */
  executor: string;
  usage: AgentUsage | null;
  /** The agent's text output (the transcript's human-readable part), as the runtime streamed it. */
  output: string;
  /** The notes the agent recorded through Flotilla's tools, in order. */
  notes: AgentNote[];
}

/**
 * What a worker returns: the role's result or the agent's questions for a human (with no session kept), or
 * the typed failure (never a thrown error: it is stored).
 */
export type AgentRunReply =
  | (ReplyCommon & { ok: true; result: AgentRunOutcome })
  | (ReplyCommon & { ok: false; reason: AgentFailureReason; message: string; resetsAt: number | null });
