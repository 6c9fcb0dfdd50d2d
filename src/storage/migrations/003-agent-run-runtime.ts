import type { Migration } from './migration.ts';

/**
 * Which runtime ran each agent run (`claude`, `scripted`): a scripted run's cost is made up, so it is marked
 * as such and kept out of spend totals. Runs recorded before this migration have NULL (unknown).
 */
export const agentRunRuntimeMigration: Migration = {
  version: 3,
  name: 'agent run runtime',
  up(db) {
    db.exec('ALTER TABLE agent_runs ADD COLUMN runtime TEXT');
  },
};
