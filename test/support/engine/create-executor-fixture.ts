import type { EngineEvent, KeptSession } from '../../../src/domain/index.ts';
import { createCommandExecutor } from '../../../src/engine/command-executor/create-command-executor.ts';
import { createRunRegistry } from '../../../src/engine/command-executor/run-registry.ts';
import { DEFAULT_SCHEDULER_CONFIG, type Policy, type WriteFence } from '../../../src/engine/engine-config.ts';
import type { RuntimeAdapter } from '../../../src/engine/runtime-contract/runtime-contract.ts';
import type { AdmittedRun } from '../../../src/engine/scheduler/create-scheduler.ts';
import { createScheduler } from '../../../src/engine/scheduler/create-scheduler.ts';
import { buildInitialEngineState, type EngineState } from '../../../src/engine/state-store/engine-state.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import type { RevisionWriter } from '../../../src/providers/types.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../in-memory-provider/create-in-memory-provider.ts';
import { createManualClock } from './create-manual-clock.ts';

/** A patch that adds `a.txt`: applies to the in-memory provider's empty tree. */
export const EXECUTOR_TEST_PATCH =
  'diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+hello\n';

export interface ExecutorFixtureOptions {
  policy?: Policy;
  maxConcurrentAgents?: number;
  providerCanMerge?: boolean;
  fence?: WriteFence;
}

/**
 * A real command executor over the in-memory provider, a real scheduler (its started runs recorded, not
 * run) and a real run registry whose adapter records cancels. `snapshot()` copies the provider's world into
 * an engine state, as the pollers would.
 */
export function createExecutorFixture(options: ExecutorFixtureOptions = {}) {
  const provider: InMemoryProvider = createInMemoryProvider({ now: () => 1_700_000_000_000 });
  const clock = createManualClock();
  const started: AdmittedRun[] = [];
  const cancelled: string[] = [];
  const adapter: RuntimeAdapter = {
    startAgent: () => Promise.reject(new Error('not used')),
    cancelAgent: (sessionID) => cancelled.push(sessionID),
  };
  const registry = createRunRegistry();
  let counter = 0;
  let polls = 0;
  const discarded: KeptSession[] = [];
  let state = buildInitialEngineState();
  const scheduler = createScheduler({
    config: { ...DEFAULT_SCHEDULER_CONFIG, maxConcurrentAgents: options.maxConcurrentAgents ?? 3 },
    clock,
    logger: silentLogger,
    getState: () => state,
    generateSessionID: () => `session-${++counter}`,
    emit: () => {},
    startRun: (admitted) => started.push(admitted),
    revalidate: (command) => ({ ok: true, command }),
  });
  const executor = createCommandExecutor({
    workItemWriter: provider.workItemWriter,
    revisionWriter:
      options.providerCanMerge === false ? withoutMerge(provider.revisionWriter) : provider.revisionWriter,
    scheduler,
    registry,
    policy: options.policy ?? (() => ({ allowed: true })),
    clock,
    logger: silentLogger,
    requestPoll: () => {
      polls += 1;
    },
    discardSession: async (session) => {
      discarded.push(session);
    },
    ...(options.fence !== undefined && { fence: options.fence }),
  });
  /** Copies the provider's world into a snapshot, as the pollers would. */
  async function snapshot(extra: Partial<EngineState> = {}): Promise<EngineState> {
    const items = await provider.workItemReader.listWorkItems();
    const revisions = await provider.revisionReader.listRevisions();
    state = buildInitialEngineState({
      workItems: Object.fromEntries(items.map((item) => [item.id, item])),
      revisions: Object.fromEntries(revisions.map((revision) => [revision.id, revision])),
      ...extra,
    });
    return state;
  }
  return {
    provider,
    executor,
    snapshot,
    started,
    cancelled,
    registry,
    adapter,
    clock,
    polls: () => polls,
    /** Sessions the executor asked the runtime to discard. */
    discarded,
  };
}

/** The executor fixture with work item #1 (`Feature`) in progress: what an implementor's result applies to. */
export function createExecutorFixtureWithItemInProgress(options: ExecutorFixtureOptions = {}) {
  const context = createExecutorFixture(options);
  context.provider.control.addWorkItem({ title: 'Feature', status: 'in-progress' });
  return context;
}

/** An applyImplementorResult for item #1 on `flotilla/1`, its summary `Summary of <outcome>`. */
export function buildApplyImplementorResult(
  outcome: 'completed' | 'blocked' | 'validation-failure',
  patch: string | null,
) {
  return {
    type: 'applyImplementorResult' as const,
    workItemID: '1',
    branchName: 'flotilla/1',
    result: { role: 'implementor' as const, outcome, summary: `Summary of ${outcome}`, patch },
  };
}

/** The types of `events`, in order. */
export const eventTypes = (events: readonly EngineEvent[]) => events.map((event) => event.type);

/** The provider's revision writer without `mergeRevision`: a provider that cannot merge. */
function withoutMerge(writer: RevisionWriter): RevisionWriter {
  const { mergeRevision: _cannotMerge, ...rest } = writer;
  return rest;
}
