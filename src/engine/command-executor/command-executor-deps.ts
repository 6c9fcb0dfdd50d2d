import type { AgentRunRequestCommand, KeptSession } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { RevisionWriter, WorkItemWriter } from '../../providers/types.ts';
import type { Clock, Policy, WriteFence } from '../engine-config.ts';
import type { Scheduler } from '../scheduler/create-scheduler.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { RunRegistry } from './run-registry.ts';

/**
 * Everything the command executor may touch. Each command module takes only the part it needs
 * (`Pick<CommandExecutorDeps, …>`), so its signature says which writers it can reach.
 */
export interface CommandExecutorDeps {
  workItemWriter: WorkItemWriter;
  revisionWriter: RevisionWriter;
  scheduler: Scheduler;
  registry: RunRegistry;
  policy: Policy;
  clock: Clock;
  logger: Logger;
  /**
   * Asks for a poll of every provider once the queue is empty. A merge moves the default branch, which
   * can change what the pollers see beyond the item and revision it reports (specs, other items).
   */
  requestPoll: () => void;
  /**
   * The files a run is expected to change (scheduler/estimate-touched-files.ts), read before it is
   * scheduled; null or absent: unknown, and the run is never held back for a conflict.
   */
  estimateFiles?: (command: AgentRunRequestCommand, state: EngineState) => Promise<readonly string[] | null>;
  /** Wraps each command's writes (EngineConfig.fence); absent: they run as they are. */
  fence?: WriteFence;
  /** Removes a session kept for questions (its worktree and state), through the runtime that made it. */
  discardSession: (session: KeptSession) => Promise<void>;
}
