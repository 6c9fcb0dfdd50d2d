import type { Migration } from './migration.ts';
import { widenFailureReasons } from './widen-failure-reasons.ts';

/**
 * The run history keeps `budget` (a cap stopped the run; the ledger says which) and `unavailable` (its
 * runtime was refused at dispatch) as they are, instead of folding them into `cancelled` and `error`.
 */
export const budgetAndUnavailableReasonsMigration: Migration = {
  version: 8,
  name: 'budget and unavailable failure reasons',
  up(db) {
    widenFailureReasons(db, ['budget', 'unavailable']);
  },
};
