import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { openDatabase } from './open-database.ts';
import { openPostgresState, POSTGRES_STATE_SCHEMA } from './open-postgres-state.ts';
import { POSTGRES_MIGRATIONS, POSTGRES_ONLY_TABLES } from './postgres-migrations/index.ts';
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
      const created = POSTGRES_MIGRATIONS.flatMap((migration) =>
        migration.statements.flatMap((statement) => /^CREATE TABLE (\w+)/.exec(statement)?.[1] ?? []),
      );
      expect(tables).toEqual([...created, 'state_migrations'].sort());
      expect(tables).toEqual(
        expect.arrayContaining([
          'agent_runs',
          'memories',
          'proposals',
          'task_context',
          'work_items',
          'reviews',
        ]),
      );
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
        .map((row) => row.tablename)
        .filter((table) => !POSTGRES_ONLY_TABLES.includes(table));
      expect(tables.length).toBeGreaterThan(0);
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
      `schema flotilla_state has version ${POSTGRES_MIGRATIONS.at(-1)?.version}, newer than the newest this Flotilla knows (0)`,
    );
  });

  it('applies a migration missing below a recorded one (branches that each added one)', () => {
    const admin = openPostgresState(postgres.url);
    admin.run('CREATE DATABASE gaps');
    admin.close();
    const url = Object.assign(new URL(postgres.url), { pathname: '/gaps' }).toString();
    const step = (version: number) => ({
      version,
      name: `step ${version}`,
      statements: [`CREATE TABLE step_${version} (id INTEGER)`],
    });
    openPostgresState(url, { migrations: [step(1), step(3)] }).close();
    const sql = openPostgresState(url, { migrations: [step(1), step(2), step(3)] });
    try {
      expect(sql.all<{ version: number }>('SELECT version FROM state_migrations ORDER BY version')).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
      ]);
      expect(sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM step_2')?.n).toBe(0);
    } finally {
      sql.close();
    }
  });

  it('names the server, not the password, when it does not answer', () => {
    expect(() => openPostgresState('postgres://flotilla:s3cret@127.0.0.1:1/postgres')).toThrow(
      /^cannot connect to PostgreSQL 127\.0\.0\.1:1\/postgres: .*expected a PostgreSQL server$/s,
    );
    expect(() => openPostgresState('postgres://flotilla:s3cret@127.0.0.1:1/postgres')).not.toThrow(/s3cret/);
  });
});
