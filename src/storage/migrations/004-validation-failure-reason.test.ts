import { describe, expect, it } from 'vitest';
import {
  AGENT_RUN_INDEXES,
  buildInsertFailedRun,
  installMigrationFixture,
  listAgentRunIndexes,
} from '../../../test/support/storage/install-migration-fixture.ts';

const database = installMigrationFixture();

const insertRun = buildInsertFailedRun('checks still red');

describe('migration 4: validation failure reason', () => {
  it('keeps the runs recorded before it, with their indexes, and accepts `validation` after it', () => {
    const before = database.openBefore(3);
    before.prepare(insertRun).run('old', 'error');
    expect(() => before.prepare(insertRun).run('too-early', 'validation')).toThrow(/CHECK constraint/);
    before.close();

    const after = database.openAfter();
    try {
      expect(after.prepare('SELECT session_id, failure_reason, runtime FROM agent_runs').all()).toEqual([
        { session_id: 'old', failure_reason: 'error', runtime: 'claude' },
      ]);
      after.prepare(insertRun).run('new', 'validation');
      expect(() => after.prepare(insertRun).run('bad', 'bogus')).toThrow(/CHECK constraint/);
      expect(listAgentRunIndexes(after)).toEqual(expect.arrayContaining(AGENT_RUN_INDEXES));
    } finally {
      after.close();
    }
  });
});
