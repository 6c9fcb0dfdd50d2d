import { engineStatePostgresMigration } from './001-engine-state.ts';
import { agentRecordsPostgresMigration } from './002-agent-records.ts';
import type { PostgresMigration } from './postgres-migration.ts';

export type { PostgresMigration } from './postgres-migration.ts';

/** Every PostgreSQL migration, oldest first. Append new ones; never edit or reorder a released one. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  engineStatePostgresMigration,
  agentRecordsPostgresMigration,
];
