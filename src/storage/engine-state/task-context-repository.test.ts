import { afterEach, describe, expect, it } from 'vitest';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import type { TaskContextEntry } from '../../domain/index.ts';
import { type Database, openDatabase } from '../open-database.ts';
import { createTaskContextRepository } from './task-context-repository.ts';

const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function entry(sessionID: string, workItemID: string, createdAt: number): TaskContextEntry {
  return {
    id: `${sessionID}:fix_summary`,
    workItemID,
    sessionID,
    role: 'implementor',
    runtime: null,
    type: 'fix_summary',
    summary: `by ${sessionID}`,
    data: { files: ['a.ts'], revisionID: '3' },
    createdAt,
  };
}

describe.each(STATE_BACKENDS)('task context repository (migration 011) on %s', (backend) => {
  const state = useStateBackend(backend);
  it('keeps entries per item, oldest first, with their data; saving one twice keeps the first', () => {
    const db = openDatabase(':memory:');
    dbs.push(db);
    const repository = createTaskContextRepository(state.connection() ?? db);
    repository.save(entry('b', '1', 20));
    repository.save(entry('a', '1', 10));
    repository.save(entry('c', '2', 5));
    repository.save({ ...entry('a', '1', 10), summary: 'rewritten' });
    expect(repository.list('1')).toEqual([entry('a', '1', 10), entry('b', '1', 20)]);
    expect(repository.listAll()).toEqual({
      '1': [entry('a', '1', 10), entry('b', '1', 20)],
      '2': [entry('c', '2', 5)],
    });
    expect(repository.list('9')).toEqual([]);
  });
});

describe('task context migration (SQLite 011)', () => {
  it("lets agent_runs record the 'no-changes' failure reason", () => {
    const db = openDatabase(':memory:');
    dbs.push(db);
    const check = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'agent_runs'")
      .get() as { sql: string };
    expect(check.sql).toMatch(/failure_reason TEXT CHECK \(failure_reason IN \([^)]*'no-changes'\)\)/);
  });
});
