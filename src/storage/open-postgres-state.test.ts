import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { openDatabase } from './open-database.ts';
import { openPostgresState, POSTGRES_STATE_SCHEMA } from './open-postgres-state.ts';
import { POSTGRES_MIGRATIONS } from './postgres-migrations/index.ts';
import { StorageError } from './storage-error.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

describe('openPostgresState', () => {
  it('migrates once into its own schema; a second open finds it migrated', () => {
    const first = openPostgresState(postgres.url);
    const second = openPostgresState(postgres.url);
    try {
      expect(second.all<{ version: number }>('SELECT version FROM state_migrations')).toEqual(
        POSTGRES_MIGRATIONS.map((migration) => ({ version: migration.version })),
      );
      const tables = first
        .all<{ tablename: string }>(
          'SELECT tablename FROM pg_tables WHERE schemaname = ? ORDER BY tablename',
          [POSTGRES_STATE_SCHEMA],
        )
        .map((row) => row.tablename);
      expect(tables).toEqual([
        'agent_conversations',
        'agent_notes',
        'agent_runs',
        'budget_ledger',
        'budget_overrides',
        'engine_errors',
        'memories',
        'planned_specs',
        'planner_waiting_sessions',
        'proposals',
        'runtime_parkings',
        'state_migrations',
        'task_context',
        'waiting_sessions',
      ]);
    } finally {
      first.close();
      second.close();
    }
  });

  it("gives each table the SQLite one's columns (PostgreSQL adds only `rowid`, SQLite's implicit one)", () => {
    const postgresState = openPostgresState(postgres.url);
    const sqlite = openDatabase(':memory:');
    try {
      const tables = postgresState
        .all<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = ? AND tablename <> 'state_migrations'",
          [POSTGRES_STATE_SCHEMA],
        )
        .map((row) => row.tablename);
      for (const table of tables) {
        const onPostgres = postgresState
          .all<{ column_name: string }>(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ? AND column_name <> 'rowid'",
            [POSTGRES_STATE_SCHEMA, table],
          )
          .map((row) => row.column_name)
          .sort();
        const onSqlite = (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
          .map((row) => row.name)
          .sort();
        expect({ table, columns: onPostgres }).toEqual({ table, columns: onSqlite });
      }
    } finally {
      postgresState.close();
      sqlite.close();
    }
  });

  it('refuses a schema a newer Flotilla migrated, naming it', () => {
    expect(() => openPostgresState(postgres.url, { migrations: [] })).toThrow(StorageError);
    expect(() => openPostgresState(postgres.url, { migrations: [] })).toThrow(
      new RegExp(
        `schema flotilla_state has version ${POSTGRES_MIGRATIONS.length}, newer than the newest this Flotilla knows \\(0\\)`,
      ),
    );
  });

  it('names the server, not the password, when it does not answer', () => {
    expect(() => openPostgresState('postgres://flotilla:s3cret@127.0.0.1:1/postgres')).toThrow(
      /^cannot connect to PostgreSQL 127\.0\.0\.1:1\/postgres: .*expected a PostgreSQL server$/s,
    );
    expect(() => openPostgresState('postgres://flotilla:s3cret@127.0.0.1:1/postgres')).not.toThrow(/s3cret/);
  });
});
