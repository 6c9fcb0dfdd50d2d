import { describe, expect, it } from 'vitest';
import {
  AGENT_RUN_INDEXES,
  buildInsertFailedRun,
  installMigrationFixture,
  listAgentRunIndexes,
} from '../../../test/support/storage/install-migration-fixture.ts';

const database = installMigrationFixture();

const insertRun = buildInsertFailedRun('stopped', 'work');

describe('migration 8: budget and unavailable failure reasons', () => {
  it('keeps earlier runs, their account and indexes, and accepts budget and unavailable', () => {
    const before = database.openBefore(7);
    before.prepare(insertRun).run('old', 'usage-limit');
    expect(() => before.prepare(insertRun).run('too-early', 'budget')).toThrow(/CHECK constraint/);
    before.close();

    const after = database.openAfter();
    try {
      expect(after.prepare('SELECT session_id, failure_reason, account FROM agent_runs').all()).toEqual([
        { session_id: 'old', failure_reason: 'usage-limit', account: 'work' },
      ]);
      for (const reason of ['budget', 'unavailable']) after.prepare(insertRun).run(reason, reason);
      expect(() => after.prepare(insertRun).run('bad', 'bogus')).toThrow(/CHECK constraint/);
      expect(listAgentRunIndexes(after)).toEqual(expect.arrayContaining(AGENT_RUN_INDEXES));
    } finally {
      after.close();
    }
  });
});
