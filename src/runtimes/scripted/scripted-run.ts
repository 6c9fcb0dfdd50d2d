import type { AgentFailureReason, AgentResult, AgentRole, AgentUsage } from '../../domain/index.ts';
import type { AgentStartParams } from '../../engine/runtime-contract/index.ts';

/**
 * One step of a run's output: a text chunk, or an activity ping (a tool call, for stall detection).
 * `delayMs` waits before the step.
 */
export type ScriptedStep = string | { text: string; delayMs?: number } | { activity: true; delayMs?: number };

/** How a scripted run ends. */
export type ScriptedEnding =
  /** `result` resolves (an implementor's `completed` result must carry a non-empty patch). */
  | { kind: 'result'; result: AgentResult }
  /** `result` rejects with an AgentRunFailure of this reason. */
  | { kind: 'fail'; reason: AgentFailureReason; message: string }
  /** `startAgent` itself rejects: the session never starts. */
  | { kind: 'provisioningFailure'; message: string }
  /** Never ends on its own: only cancelAgent, the adapter's maxDurationMs or control.resolve/reject end it. */
  | { kind: 'hang' };

export interface ScriptedRun {
  /** How long startAgent takes before it resolves (or rejects, for a provisioning failure). */
  startDelayMs?: number;
  output?: ScriptedStep[];
  /** Wait after the output, before the ending. */
  delayMs?: number;
  end: ScriptedEnding;
  /** Overrides the adapter's usage for this run. */
  usage?: AgentUsage | null;
  /** Overrides the adapter's log file path for this run. */
  logFilePath?: string | null;
}

export interface ScriptedRunContext {
  /** 0-based: how many runs of this role were requested before this one. */
  roleIndex: number;
  /** 0-based across every role. */
  index: number;
}

export type ScriptedRunFactory = (
  params: AgentStartParams,
  context: ScriptedRunContext,
) => ScriptedRun | Promise<ScriptedRun>;

/** Per role: a queue of runs (consumed in order), or a function deciding each run. */
export type ScriptedAdapterScript = Partial<Record<AgentRole, ScriptedRun[] | ScriptedRunFactory>>;
