import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
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
        'agent_runs',
        'budget_ledger',
        'budget_overrides',
        'planned_specs',
        'planner_waiting_sessions',
        'runtime_parkings',
        'state_migrations',
        'waiting_sessions',
      ]);
    } finally {
      first.close();
      second.close();
    }
  });

  it('refuses a schema a newer Flotilla migrated, naming it', () => {
    expect(() => openPostgresState(postgres.url, { migrations: [] })).toThrow(StorageError);
    expect(() => openPostgresState(postgres.url, { migrations: [] })).toThrow(
      /schema flotilla_state has version 1, newer than the newest this Flotilla knows \(0\)/,
    );
  });

  it('names the server, not the password, when it does not answer', () => {
    expect(() => openPostgresState('postgres://flotilla:s3cret@127.0.0.1:1/postgres')).toThrow(
      /^cannot connect to PostgreSQL 127\.0\.0\.1:1\/postgres: .*expected a PostgreSQL server$/s,
    );
    expect(() => openPostgresState('postgres://flotilla:s3cret@127.0.0.1:1/postgres')).not.toThrow(/s3cret/);
  });
});
