import { type BudgetCaps, NO_BUDGET_CAPS } from '../../src/domain/index.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import type { Clock } from '../../src/engine/engine-config.ts';
import type { RuntimeAdapter } from '../../src/engine/runtime-contract/index.ts';
import type { Logger } from '../../src/logging/logger.ts';
import {
  createEngineStatePersistence,
  type Database,
  type EngineStatePersistence,
  openDatabase,
} from '../../src/storage/index.ts';
import type { InMemoryProvider } from './in-memory-provider/create-in-memory-provider.ts';

/**
 * The engine the budget tests drive: `adapter()` for every role on `provider`, polls off, one agent at a
 * time (or `maxConcurrentAgents`), `caps` (over no caps) enforced on the ledger of a real SQLite file at `dbPath` — persistence
 * records every event (agents' memories included, which prompts then list) and gives the initial state, so a
 * second call on the same file is a restart — with a
 * $0.01 estimate floor and 200 ms rechecks. The caller stops the engine and closes `db`.
 */
export function createBudgetedEngine(options: {
  dbPath: string;
  provider: InMemoryProvider;
  caps: Partial<BudgetCaps>;
  logger: Logger;
  adapter: () => RuntimeAdapter;
  clock?: Clock;
  maxConcurrentAgents?: number;
}): { engine: Engine; persistence: EngineStatePersistence; db: Database } {
  const db = openDatabase(options.dbPath);
  const persistence = createEngineStatePersistence(db);
  const engine = createEngine({
    provider: options.provider,
    logger: options.logger,
    ...(options.clock !== undefined && { clock: options.clock }),
    initialState: persistence.loadInitialState(),
    // Prompts end with the repository's memories from the same file, as the control plane wires them.
    memories: {
      list: (limit) => persistence.memories.list(limit),
      count: () => persistence.memories.count(),
    },
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    scheduler: { maxConcurrentAgents: options.maxConcurrentAgents ?? 1 },
    budget: {
      caps: { ...NO_BUDGET_CAPS, ...options.caps },
      ledger: persistence.ledger,
      estimateFloorUsd: 0.01,
      recheckMs: 200,
    },
    createRuntimeAdapters: () => {
      const adapter = options.adapter();
      return { planner: adapter, implementor: adapter, reviewer: adapter };
    },
  });
  engine.onEvent((event, state) => persistence.record(event, state));
  return { engine, persistence, db };
}
