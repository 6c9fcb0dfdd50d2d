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
    failure_reason, error, runtime)
  VALUES (?, 'implementor', 'failed', '7', 'flotilla/7', 10, 20, ?, 'limited', 'claude')`;

describe('migration 7: runtime limits and accounts', () => {
  it('keeps earlier runs and indexes, accepts the limit reasons and an account, and adds runtime_parkings', () => {
    const path = join(dir.path, 'flotilla.db');
    const before = openDatabase(path, { migrations: MIGRATIONS.slice(0, 6) });
    before.prepare(insertRun).run('old', 'validation');
    expect(() => before.prepare(insertRun).run('too-early', 'usage-limit')).toThrow(/CHECK constraint/);
    before.close();

    const after = openDatabase(path);
    try {
      expect(after.prepare('SELECT session_id, failure_reason, account FROM agent_runs').all()).toEqual([
        { session_id: 'old', failure_reason: 'validation', account: null },
      ]);
      for (const reason of ['rate-limit', 'overloaded', 'usage-limit'])
        after.prepare(insertRun).run(reason, reason);
      expect(() => after.prepare(insertRun).run('bad', 'bogus')).toThrow(/CHECK constraint/);
      const indexes = after
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'agent_runs' ORDER BY name",
        )
        .all()
        .map((row) => (row as { name: string }).name);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'agent_runs_active',
          'agent_runs_by_requested_at',
          'agent_runs_by_work_item',
        ]),
      );
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
