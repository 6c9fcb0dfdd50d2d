import { engineStateMigration } from './001-engine-state.ts';
import { localTrackerMigration } from './002-local-tracker.ts';
import { agentRunRuntimeMigration } from './003-agent-run-runtime.ts';
import { validationFailureReasonMigration } from './004-validation-failure-reason.ts';
import { waitingSessionsMigration } from './005-waiting-sessions.ts';
import { budgetLedgerMigration } from './006-budget-ledger.ts';
import { runtimeLimitsMigration } from './007-runtime-limits.ts';
import { budgetAndUnavailableReasonsMigration } from './008-budget-and-unavailable-reasons.ts';
import { plannerWaitingSessionsMigration } from './009-planner-waiting-sessions.ts';
import { reviewVerdictsMigration } from './010-review-verdicts.ts';
import { taskContextMigration } from './011-task-context.ts';
import { proposalsMigration } from './012-proposals.ts';
import { repositoryMemoryMigration } from './013-repository-memory.ts';
import { agentModesMigration } from './015-agent-modes.ts';
import { agentConversationsMigration } from './016-agent-conversations.ts';
import { fileEstimatesMigration } from './017-file-estimates.ts';
import { refinedBodiesMigration } from './018-refined-bodies.ts';
import { refineQuestionsMigration } from './020-refine-questions.ts';
import type { Migration } from './migration.ts';

export type { Migration } from './migration.ts';

/** Every migration, oldest first. Append new ones; never edit or reorder a released one. */
export const MIGRATIONS: readonly Migration[] = [
  engineStateMigration,
  localTrackerMigration,
  agentRunRuntimeMigration,
  validationFailureReasonMigration,
  waitingSessionsMigration,
  budgetLedgerMigration,
  runtimeLimitsMigration,
  budgetAndUnavailableReasonsMigration,
  plannerWaitingSessionsMigration,
  reviewVerdictsMigration,
  taskContextMigration,
  proposalsMigration,
  repositoryMemoryMigration,
  agentModesMigration,
  agentConversationsMigration,
  fileEstimatesMigration,
  refinedBodiesMigration,
  refineQuestionsMigration,
];
