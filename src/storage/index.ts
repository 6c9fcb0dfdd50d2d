export {
  type AgentConversationRepository,
  createAgentConversationRepository,
} from './engine-state/agent-conversation-repository.ts';
export {
  type AgentNoteRepository,
  createAgentNoteRepository,
} from './engine-state/agent-note-repository.ts';
export {
  type AgentRunRepository,
  createAgentRunRepository,
  type ListRunsQuery,
  type StoredAgentRun,
} from './engine-state/agent-run-repository.ts';
export {
  BUDGET_CAP_NAMES,
  type BudgetCapName,
  type BudgetLedgerRepository,
  createBudgetLedgerRepository,
  type LedgerEntry,
} from './engine-state/budget-ledger-repository.ts';
export {
  createEngineStatePersistence,
  type EngineStatePersistence,
  INTERRUPTED_RUN_ERROR,
} from './engine-state/create-engine-state-persistence.ts';
export {
  createEngineErrorRepository,
  type StoredEngineError,
} from './engine-state/engine-error-repository.ts';
export {
  createMemoryRepository,
  type MemoryInput,
  type MemoryRepository,
} from './engine-state/memory-repository.ts';
export { createPlannedSpecRepository } from './engine-state/planned-spec-repository.ts';
export {
  createRunTranscriptRepository,
  type RunTranscriptRepository,
  type StoredTranscriptChunk,
} from './engine-state/run-transcript-repository.ts';
export {
  createTaskContextRepository,
  type TaskContextRepository,
} from './engine-state/task-context-repository.ts';
export { MIGRATIONS } from './migrations/index.ts';
export {
  type Database,
  DEFAULT_BUSY_TIMEOUT_MS,
  type OpenDatabaseOptions,
  openDatabase,
} from './open-database.ts';
export {
  type OpenPostgresStateOptions,
  openPostgresState,
  POSTGRES_STATE_SCHEMA,
} from './open-postgres-state.ts';
export {
  POSTGRES_MIGRATIONS,
  POSTGRES_ONLY_TABLES,
  type PostgresMigration,
} from './postgres-migrations/index.ts';
export { type MigrationReport, runMigrations } from './run-migrations.ts';
export type { SqlConnection, SqlValue } from './sql/sql-connection.ts';
export { StorageError } from './storage-error.ts';
export * from './tracker/create-sqlite-tracker.ts';
export type * from './tracker/create-tracker-outcomes.ts';
export type * from './tracker/create-tracker-revisions.ts';
export type * from './tracker/create-tracker-work-items.ts';
