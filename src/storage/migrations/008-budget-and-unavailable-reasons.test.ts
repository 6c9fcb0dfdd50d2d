import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test-support/create-temp-dir.ts';
import { openDatabase } from '../open-database.ts';
import { MIGRATIONS } from './index.ts';

let dir: ReturnType<typeof createTempDir>;

beforeEach(() => {
  dir = createTempDir();
});

afterEach(() => {
  dir.remove();
});

const insertRun = `
  INSERT INTO agent_runs (session_id, role, status, work_item_id, branch_name, requested_at, ended_at,
    failure_reason, error, runtime, account)
  VALUES (?, 'implementor', 'failed', '7', 'flotilla/7', 10, 20, ?, 'stopped', 'claude', 'work')`;

describe('migration 8: budget and unavailable failure reasons', () => {
  it('keeps earlier runs, their account and indexes, and accepts budget and unavailable', () => {
    const path = join(dir.path, 'flotilla.db');
    const before = openDatabase(path, { migrations: MIGRATIONS.slice(0, 7) });
    before.prepare(insertRun).run('old', 'usage-limit');
    expect(() => before.prepare(insertRun).run('too-early', 'budget')).toThrow(/CHECK constraint/);
    before.close();

    const after = openDatabase(path);
    try {
      expect(after.prepare('SELECT session_id, failure_reason, account FROM agent_runs').all()).toEqual([
        { session_id: 'old', failure_reason: 'usage-limit', account: 'work' },
      ]);
      for (const reason of ['budget', 'unavailable']) after.prepare(insertRun).run(reason, reason);
      expect(() => after.prepare(insertRun).run('bad', 'bogus')).toThrow(/CHECK constraint/);
      const indexes = after
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'agent_runs'")
        .all()
        .map((row) => (row as { name: string }).name);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'agent_runs_active',
          'agent_runs_by_requested_at',
          'agent_runs_by_work_item',
        ]),
      );
    } finally {
      after.close();
    }
  });
});
