import { engineStatePostgresMigration } from './001-engine-state.ts';
import { agentRecordsPostgresMigration } from './002-agent-records.ts';
import { localTrackerPostgresMigration } from './003-local-tracker.ts';
import { refinedBodiesPostgresMigration } from './004-refined-bodies.ts';
import { refineQuestionsPostgresMigration } from './006-refine-questions.ts';
import { runTranscriptChunksPostgresMigration } from './007-run-transcript-chunks.ts';
import type { PostgresMigration } from './postgres-migration.ts';

export { POSTGRES_ONLY_TABLES } from './007-run-transcript-chunks.ts';
export type { PostgresMigration } from './postgres-migration.ts';

/**
 * Every PostgreSQL migration, oldest first (ascending versions: the last is the newest this Flotilla knows).
 * Append new ones; never edit or reorder a released one. A version missing from a database is applied even
 * when a later one already is (each creates its own tables).
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  engineStatePostgresMigration,
  agentRecordsPostgresMigration,
  localTrackerPostgresMigration,
  refinedBodiesPostgresMigration,
  refineQuestionsPostgresMigration,
  runTranscriptChunksPostgresMigration,
];
