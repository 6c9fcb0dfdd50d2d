import type { ApprovalMode, DependencyWaitFor, EngineCommand, EngineEvent } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';

/** Limits the pure handlers need. */
export interface HandlerConfig {
  maxAttempts: number;
  /** needs-changes verdicts sent back for automatic rework before a human must look. */
  maxReviewRounds: number;
  /** Red-checks revisions sent back for automatic rework before a human must look. */
  maxCheckRounds: number;
  /**
   * `approval.plans` (issue #29 §2): `auto` applies a planner's result at once; `required` stores it as a
   * proposal a human accepts or rejects. Absent: `auto`.
   */
  approval?: { plans: ApprovalMode; investigations?: ApprovalMode; refinements?: ApprovalMode };
  /** Config `dependencies.waitFor`: when a blocker stops blocking. Default `approved`. */
  dependencyWaitFor?: DependencyWaitFor;
  /**
   * Config `merge.queue` (issue #30 §5): approved items merge on their own, one at a time through the merge
   * queue (handle-merge-queue.ts). Absent or false: merging is a human's decision.
   */
  mergeQueue?: boolean;
  /**
   * Config `modes.refine.auto` (issue #29): an item in needs-refinement, or a `task:refinement` item, gets a
   * `refine` run once per version of its body (handle-auto-refinement.ts). Absent or false: it waits for a
   * human.
   */
  autoRefine?: boolean;
  /** The provider keeps task context on its items (`Provider.taskContextMirror`): post each new entry. */
  mirrorTaskContext?: boolean;
}

/** A pure reaction to one event, seen against the state after that event was applied. No I/O. */
export type Handler = (event: EngineEvent, state: EngineState, config: HandlerConfig) => EngineCommand[];

export interface NamedHandler {
  /** For logs and recorded errors when the handler throws. */
  name: string;
  handle: Handler;
}
