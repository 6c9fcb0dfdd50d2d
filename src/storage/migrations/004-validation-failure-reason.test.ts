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
  VALUES (?, 'implementor', 'failed', '7', 'flotilla/7', 10, 20, ?, 'checks still red', 'claude')`;

describe('migration 4: validation failure reason', () => {
  it('keeps the runs recorded before it, with their indexes, and accepts `validation` after it', () => {
    const path = join(dir.path, 'flotilla.db');
    const before = openDatabase(path, { migrations: MIGRATIONS.slice(0, 3) });
    before.prepare(insertRun).run('old', 'error');
    expect(() => before.prepare(insertRun).run('too-early', 'validation')).toThrow(/CHECK constraint/);
    before.close();

    const after = openDatabase(path);
    try {
      expect(after.prepare('SELECT session_id, failure_reason, runtime FROM agent_runs').all()).toEqual([
        { session_id: 'old', failure_reason: 'error', runtime: 'claude' },
      ]);
      after.prepare(insertRun).run('new', 'validation');
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
    } finally {
      after.close();
    }
  });
});
