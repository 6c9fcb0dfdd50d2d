import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import { type Database, openDatabase } from '../open-database.ts';
import { describePostgresUrl, toDollarPlaceholders } from './create-postgres-connection.ts';
import { createSqliteConnection } from './create-sqlite-connection.ts';
import { notIn, type SqlConnection } from './sql-connection.ts';

describe.each(STATE_BACKENDS)('the SQL port on %s', (backendName) => {
  const backend = useStateBackend(backendName);
  let dir: ReturnType<typeof createTempDir>;
  let db: Database;
  let sql: SqlConnection;
  beforeEach(() => {
    dir = createTempDir();
    db = openDatabase(join(dir.path, 'flotilla.db'));
    sql = backend.connection() ?? createSqliteConnection(db);
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });
  const specs = () =>
    sql.all<{ spec_path: string; planned_at: number }>(
      'SELECT spec_path, planned_at FROM planned_specs ORDER BY spec_path',
    );

  it('binds ? placeholders in order and reads integers back as numbers', () => {
    sql.run('INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES (?, ?, ?)', [
      'a.md',
      'x',
      1_790_000_000_000,
    ]);
    expect(sql.get('SELECT spec_path, planned_at FROM planned_specs WHERE spec_path = ?', ['a.md'])).toEqual({
      spec_path: 'a.md',
      planned_at: 1_790_000_000_000,
    });
    expect(sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM planned_specs')?.n).toBe(1);
    expect(sql.get('SELECT spec_path FROM planned_specs WHERE spec_path = ?', ['missing'])).toBeUndefined();
  });

  it('rolls a failed transaction back, and a failed nested one only to where it began', () => {
    const insert = (path: string) =>
      sql.run('INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES (?, ?, ?)', [path, 'x', 1]);
    expect(() =>
      sql.transaction(() => {
        insert('a.md');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(specs()).toEqual([]);
    sql.transaction(() => {
      insert('b.md');
      expect(() =>
        sql.transaction(() => {
          insert('c.md');
          insert('c.md');
        }),
      ).toThrow();
      insert('d.md');
    });
    expect(specs().map((row) => row.spec_path)).toEqual(['b.md', 'd.md']);
  });

  it('excludes a list of any length, none included', () => {
    for (const path of ['a.md', 'b.md', 'c.md'])
      sql.run('INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES (?, ?, ?)', [path, 'x', 1]);
    const left = (excluded: string[]) => {
      const clause = notIn('spec_path', excluded);
      return sql
        .all<{ spec_path: string }>(
          `SELECT spec_path FROM planned_specs WHERE ${clause.sql} ORDER BY spec_path`,
          clause.params,
        )
        .map((row) => row.spec_path);
    };
    expect(left([])).toEqual(['a.md', 'b.md', 'c.md']);
    expect(left(['a.md', 'c.md'])).toEqual(['b.md']);
  });
});

describe('PostgreSQL helpers', () => {
  it('numbers placeholders outside quoted text only', () => {
    expect(toDollarPlaceholders("SELECT ? WHERE a = '?' AND b = ?")).toBe(
      "SELECT $1 WHERE a = '?' AND b = $2",
    );
  });

  it('names the server in messages, never the password', () => {
    expect(describePostgresUrl('postgres://flotilla:s3cret@db.example:5432/fleet?sslmode=require')).toBe(
      'PostgreSQL db.example:5432/fleet',
    );
  });
});
