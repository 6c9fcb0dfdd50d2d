import { engineStateMigration } from './001-engine-state.ts';
import { localTrackerMigration } from './002-local-tracker.ts';
import { agentRunRuntimeMigration } from './003-agent-run-runtime.ts';
import { validationFailureReasonMigration } from './004-validation-failure-reason.ts';
import { budgetLedgerMigration } from './006-budget-ledger.ts';
import { runtimeLimitsMigration } from './007-runtime-limits.ts';
import type { Migration } from './migration.ts';

export type { Migration } from './migration.ts';

/** Every migration, oldest first. Append new ones; never edit or reorder a released one. */
export const MIGRATIONS: readonly Migration[] = [
  engineStateMigration,
  localTrackerMigration,
  agentRunRuntimeMigration,
  validationFailureReasonMigration,
  // A placeholder until the 005 (questions) migration lands. run-migrations.ts applies a migration whose
  // version was recorded only by a `reserved for …` placeholder once the real one arrives.
  { version: 5, name: 'reserved for questions', up() {} },
  budgetLedgerMigration,
  runtimeLimitsMigration,
];
