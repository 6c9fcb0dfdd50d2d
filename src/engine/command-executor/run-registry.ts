import type { AgentFailureReason } from '../../domain/index.ts';
import type { OutputBroadcast } from '../../shared/create-output-broadcast.ts';
import type { RuntimeAdapter } from '../runtime-contract/runtime-contract.ts';

interface RegisteredRun {
  adapter: RuntimeAdapter;
  stream: OutputBroadcast | null;
  started: boolean;
  /** Set when the engine asked to end the run; decides the failure reason it reports. */
  cancelReason: AgentFailureReason | null;
}

/** Runs the engine has started and not yet seen end: streams, and cancels that must reach the session. */
export interface RunRegistry {
  register(sessionID: string, adapter: RuntimeAdapter): void;
  markStarted(sessionID: string, stream: OutputBroadcast): void;
  /**
   * Asks the run to end. The adapter is told at once if the session exists, otherwise as soon as it
   * starts (a cancel during provisioning must not be lost). Returns false for unknown sessions.
   */
  cancel(sessionID: string, reason: AgentFailureReason): boolean;
  cancelReasonOf(sessionID: string): AgentFailureReason | null;
  getStream(sessionID: string): OutputBroadcast | null;
  remove(sessionID: string): void;
  sessionIDs(): string[];
}

export function createRunRegistry(): RunRegistry {
  const runs = new Map<string, RegisteredRun>();
  return {
    register(sessionID, adapter) {
      runs.set(sessionID, { adapter, stream: null, started: false, cancelReason: null });
    },
    markStarted(sessionID, stream) {
      const run = runs.get(sessionID);
      if (!run) return;
      run.started = true;
      run.stream = stream;
      if (run.cancelReason !== null) run.adapter.cancelAgent(sessionID);
    },
    cancel(sessionID, reason) {
      const run = runs.get(sessionID);
      if (!run) return false;
      run.cancelReason ??= reason;
      if (run.started) run.adapter.cancelAgent(sessionID);
      return true;
    },
    cancelReasonOf: (sessionID) => runs.get(sessionID)?.cancelReason ?? null,
    getStream: (sessionID) => runs.get(sessionID)?.stream ?? null,
    remove(sessionID) {
      runs.delete(sessionID);
    },
    sessionIDs: () => [...runs.keys()],
  };
}
