import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import { type Database, openDatabase } from './open-database.ts';
import { StorageError } from './storage-error.ts';

let dir: ReturnType<typeof createTempDir>;
const open: Database[] = [];

function track(db: Database): Database {
  open.push(db);
  return db;
}

function versions(db: Database): number[] {
  return db
    .prepare('SELECT version FROM schema_migrations ORDER BY version')
    .all()
    .map((row) => (row as { version: number }).version);
}

function tableNames(db: Database): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => (row as { name: string }).name);
}

beforeEach(() => {
  dir = createTempDir();
});

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  dir.remove();
});

describe('openDatabase', () => {
  it('creates the file (and its directory) and applies every migration to a fresh database', () => {
    const path = join(dir.path, '.flotilla', 'flotilla.db');
    const db = track(openDatabase(path));
    expect(existsSync(path)).toBe(true);
    expect(versions(db)).toEqual(MIGRATIONS.map((migration) => migration.version));
    expect(tableNames(db)).toEqual(
      expect.arrayContaining([
        'agent_runs',
        'planned_specs',
        'engine_errors',
        'work_items',
        'revisions',
        'reviews',
      ]),
    );
  });

  it('turns on WAL, foreign keys and the busy timeout on a real file', () => {
    const path = join(dir.path, 'flotilla.db');
    const db = track(openDatabase(path, { busyTimeoutMs: 1234 }));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
    db.prepare("INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES ('a.md', 'x', 1)").run();
    expect(existsSync(`${path}-wal`)).toBe(true);
    // Foreign keys are really enforced, not just reported as on.
    expect(() =>
      db.prepare("INSERT INTO work_item_labels (work_item_id, label, position) VALUES (999, 'x', 0)").run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('uses a 5 s busy timeout by default', () => {
    const db = track(openDatabase(join(dir.path, 'flotilla.db')));
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('migrates a version-1 database to the newest version, keeping its data', () => {
    const path = join(dir.path, 'flotilla.db');
    const v1 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(versions(v1)).toEqual([1]);
    expect(tableNames(v1)).not.toContain('work_items');
    v1.prepare(
      "INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES ('docs/specs/a.md', 'abc', 1)",
    ).run();
    v1.close();

    const db = track(openDatabase(path));
    expect(versions(db)).toEqual(MIGRATIONS.map((migration) => migration.version));
    expect(tableNames(db)).toContain('work_items');
    expect(db.prepare('SELECT blob_sha FROM planned_specs').pluck().get()).toBe('abc');
  });

  it('refuses a database from a newer Flotilla with a clear error, without changing it', () => {
    const path = join(dir.path, 'flotilla.db');
    const newest = MIGRATIONS.at(-1)?.version ?? 0;
    const future = newest + 3;
    const db = openDatabase(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 'x')").run(
      future,
    );
    db.close();
    expect(() => track(openDatabase(path))).toThrow(StorageError);
    expect(() => track(openDatabase(path))).toThrow(
      new RegExp(`schema version ${future}, newer than the newest this Flotilla knows \\(${newest}\\)`),
    );
    const raw = track(
      openDatabase(path, { migrations: [...MIGRATIONS, ...futureMigrations(newest + 1, future)] }),
    );
    // Versions below the recorded one still run when missing (applied by set, not by the highest).
    expect(versions(raw)).toEqual([
      ...MIGRATIONS.map((migration) => migration.version),
      ...futureMigrations(newest + 1, future).map((migration) => migration.version),
    ]);
  });

  it('rolls a failing migration back completely and stays at the previous version', () => {
    const path = join(dir.path, 'flotilla.db');
    const broken: Migration = {
      version: 2,
      name: 'broken',
      up(database) {
        database.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('boom');
      },
    };
    expect(() => openDatabase(path, { migrations: [MIGRATIONS[0]!, broken] })).toThrow(
      /migration 2 \(broken\) failed: boom/,
    );
    const db = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) }));
    expect(versions(db)).toEqual([1]);
    expect(tableNames(db)).not.toContain('half_done');
  });

  it('applies a reserved lower version that arrives after a higher one (numbers are assigned in parallel)', () => {
    const path = join(dir.path, 'gap.db');
    const withoutFive = MIGRATIONS.filter((migration) => migration.version !== 5);
    track(openDatabase(path, { migrations: withoutFive })).close();
    const late: Migration = {
      version: 5,
      name: 'late',
      up(database) {
        database.exec('CREATE TABLE late_arrival (x INTEGER)');
      },
    };
    const ordered = [...withoutFive, late].sort((a, b) => a.version - b.version);
    const db = track(openDatabase(path, { migrations: ordered }));
    expect(versions(db)).toContain(5);
    expect(tableNames(db)).toContain('late_arrival');
  });

  it('applies the real migration of a version a `reserved for …` placeholder recorded', () => {
    const path = join(dir.path, 'placeholder.db');
    const withPlaceholder = MIGRATIONS.map((migration) =>
      migration.version === 6 ? { version: 6, name: 'reserved for budgets', up() {} } : migration,
    );
    track(openDatabase(path, { migrations: withPlaceholder })).close();
    const db = track(openDatabase(path));
    expect(tableNames(db)).toContain('budget_ledger');
    expect(db.prepare('SELECT name FROM schema_migrations WHERE version = 6').pluck().get()).toBe(
      'budget ledger',
    );
  });

  it('applies the real 005 (waiting sessions) on a database its placeholder recorded', () => {
    const path = join(dir.path, 'placeholder-005.db');
    const withPlaceholder = MIGRATIONS.map((migration) =>
      migration.version === 5 ? { version: 5, name: 'reserved for questions', up() {} } : migration,
    );
    track(openDatabase(path, { migrations: withPlaceholder })).close();
    const db = track(openDatabase(path));
    expect(tableNames(db)).toContain('waiting_sessions');
    // 007 rebuilt agent_runs before 005 arrived; 005's columns are added to the rebuilt table.
    const columns = db
      .prepare('PRAGMA table_info(agent_runs)')
      .all()
      .map((row) => (row as { name: string }).name);
    expect(columns).toEqual(expect.arrayContaining(['session_number', 'asked_questions', 'account']));
    expect(db.prepare('SELECT name FROM schema_migrations WHERE version = 5').pluck().get()).toBe(
      'waiting sessions',
    );
  });

  it('rejects a migration list that does not count up from 1', () => {
    expect(() => openDatabase(join(dir.path, 'a.db'), { migrations: [MIGRATIONS[1]!] })).toThrow(
      /expected version 1 at position 1, got 2/,
    );
  });

  it('lets a second connection read during a write and wait for the lock (WAL + busy timeout)', async () => {
    const path = join(dir.path, 'flotilla.db');
    track(openDatabase(path)).close();
    // Another process holds the write lock for a while, like a running engine.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `
        const Database = require('better-sqlite3');
        const db = new Database(${JSON.stringify(path)});
        db.exec("BEGIN IMMEDIATE; INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES ('held.md', 'h', 1)");
        process.stdout.write('locked\\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);
        db.exec('COMMIT');
        db.close();
        `,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((resolve) => holder.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('locked')) resolve();
      });
      holder.on('exit', (code) => reject(new Error(`lock holder exited early with ${code}`)));
    });

    const impatient = track(openDatabase(path, { busyTimeoutMs: 0 }));
    // WAL: reading is not blocked by the writer, and sees only committed data.
    expect(impatient.prepare('SELECT COUNT(*) FROM planned_specs').pluck().get()).toBe(0);
    expect(() =>
      impatient
        .prepare("INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES ('b.md', 'b', 1)")
        .run(),
    ).toThrow(/database is locked/);

    const patient = track(openDatabase(path, { busyTimeoutMs: 10_000 }));
    patient
      .prepare("INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES ('c.md', 'c', 1)")
      .run();
    expect(await exited).toBe(0);
    expect(patient.prepare('SELECT spec_path FROM planned_specs ORDER BY spec_path').pluck().all()).toEqual([
      'c.md',
      'held.md',
    ]);
  });
});

function futureMigrations(from: number, to: number): Migration[] {
  const list: Migration[] = [];
  for (let version = from; version <= to; version += 1)
    list.push({ version, name: `future ${version}`, up() {} });
  return list;
}
