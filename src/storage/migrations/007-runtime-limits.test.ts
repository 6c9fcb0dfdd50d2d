import { describe, expect, it } from 'vitest';
import {
  AGENT_RUN_INDEXES,
  buildInsertFailedRun,
  installMigrationFixture,
  listAgentRunIndexes,
} from '../../../test/support/storage/install-migration-fixture.ts';

const database = installMigrationFixture();

const insertRun = buildInsertFailedRun('limited');

describe('migration 7: runtime limits and accounts', () => {
  it('keeps earlier runs and indexes, accepts the limit reasons and an account, and adds runtime_parkings', () => {
    const before = database.openBefore(6);
    before.prepare(insertRun).run('old', 'validation');
    expect(() => before.prepare(insertRun).run('too-early', 'usage-limit')).toThrow(/CHECK constraint/);
    before.close();

    const after = database.openAfter();
    try {
      expect(after.prepare('SELECT session_id, failure_reason, account FROM agent_runs').all()).toEqual([
        { session_id: 'old', failure_reason: 'validation', account: null },
      ]);
      for (const reason of ['rate-limit', 'overloaded', 'usage-limit'])
        after.prepare(insertRun).run(reason, reason);
      expect(() => after.prepare(insertRun).run('bad', 'bogus')).toThrow(/CHECK constraint/);
      expect(listAgentRunIndexes(after)).toEqual(expect.arrayContaining(AGENT_RUN_INDEXES));
      after
        .prepare(
          `INSERT INTO runtime_parkings (key, runtime, account, reason, until_at, since_at, hits, message)
           VALUES ('claude', 'claude', NULL, 'usage-limit', 2, 1, 1, 'limit')`,
        )
        .run();
    } finally {
      after.close();
    }
  });
});
