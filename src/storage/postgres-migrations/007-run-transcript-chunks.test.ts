import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../../test/support/start-postgres.ts';
import { createRunTranscriptRepository } from '../engine-state/run-transcript-repository.ts';
import { openDatabase } from '../open-database.ts';
import { openPostgresState } from '../open-postgres-state.ts';
import { createSqliteConnection } from '../sql/create-sqlite-connection.ts';
import type { SqlConnection } from '../sql/sql-connection.ts';
import { POSTGRES_MIGRATIONS } from './index.ts';

let postgres: TestPostgres;
let sql: SqlConnection;
beforeAll(async () => {
  postgres = await startPostgres();
  // The migrations before 007 only, then 007 on top: as a cluster upgraded to this Flotilla.
  openPostgresState(postgres.url, {
    migrations: POSTGRES_MIGRATIONS.filter((migration) => migration.version < 7),
  }).close();
  sql = openPostgresState(postgres.url);
}, 60_000);
afterAll(() => {
  sql?.close();
  postgres?.stop();
});

const INSERT = `INSERT INTO run_transcript_chunks (run_id, session_number, executor, seq, text, at)
  VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, executor, seq) DO NOTHING`;

describe('PostgreSQL migration 007: run transcript chunks', () => {
  it('is applied on a schema migrated up to 006', () => {
    const applied = sql.all<{ version: number }>('SELECT version FROM state_migrations ORDER BY version');
    expect(applied.map((row) => row.version)).toContain(7);
  });

  it("keeps a chunk sent twice once, and reads a run's chunks in the order they were stored", () => {
    sql.run(INSERT, ['run-a', 1, 'slot-1', 0, 'header\n', 1000]);
    sql.run(INSERT, ['run-b', 1, 'slot-1', 0, 'other run\n', 1001]);
    sql.run(INSERT, ['run-a', 1, 'slot-1', 1, 'first\n', 1002]);
    sql.run(INSERT, ['run-a', 1, 'slot-1', 1, 'first again\n', 1003]);
    // The run requeued: another executor's execution starts its own numbering.
    sql.run(INSERT, ['run-a', 1, 'slot-2', 0, 'header\n', 1004]);
    expect(createRunTranscriptRepository(sql).chunksOf('run-a')).toEqual([
      { executor: 'slot-1', sessionNumber: 1, seq: 0, text: 'header\n', at: 1000 },
      { executor: 'slot-1', sessionNumber: 1, seq: 1, text: 'first\n', at: 1002 },
      { executor: 'slot-2', sessionNumber: 1, seq: 0, text: 'header\n', at: 1004 },
    ]);
    expect(createRunTranscriptRepository(sql).chunksOf('run-none')).toEqual([]);
  });

  it('refuses a session number below 1 and a negative sequence', () => {
    expect(() => sql.run(INSERT, ['run-c', 0, 'slot-1', 0, 'x', 1])).toThrow(/check constraint/);
    expect(() => sql.run(INSERT, ['run-c', 1, 'slot-1', -1, 'x', 1])).toThrow(/check constraint/);
  });

  it('has no SQLite twin: one machine reads no chunks (its transcripts are files)', () => {
    const db = openDatabase(':memory:');
    try {
      expect(createRunTranscriptRepository(createSqliteConnection(db)).chunksOf('run-a')).toEqual([]);
    } finally {
      db.close();
    }
  });
});
