import { afterEach, describe, expect, it } from 'vitest';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import { type Database, openDatabase } from '../open-database.ts';
import type { SqlTarget } from '../sql/as-sql-connection.ts';
import { createAgentNoteRepository } from './agent-note-repository.ts';
import { createMemoryRepository } from './memory-repository.ts';

const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const by = { source: 'implementor', sessionID: 's1', workItemID: '7', runtime: 'claude' } as const;

describe.each(STATE_BACKENDS)('memory repository (migration 013) on %s', (backend) => {
  const state = useStateBackend(backend);
  /** The backend's connection, or a fresh SQLite database. */
  function open(): SqlTarget {
    const connection = state.connection();
    if (connection !== undefined) return connection;
    const db: Database = openDatabase(':memory:');
    dbs.push(db);
    return db;
  }

  it('keeps one memory per topic (any case), newest first; a topic stored again takes the new text', () => {
    const memories = createMemoryRepository(open());
    const build = memories.upsert({ ...by, topic: 'Build', text: 'make', at: 10 });
    memories.upsert({ ...by, topic: 'tests', text: 'npm test', at: 20 });
    const again = memories.upsert({ ...by, topic: 'build', text: 'make all', sessionID: 's2', at: 30 });
    expect(again).toMatchObject({ id: build.id, topic: 'Build', text: 'make all', sessionID: 's2' });
    expect(again.createdAt).toBe(10);
    expect(memories.list().map((memory) => [memory.topic, memory.text])).toEqual([
      ['Build', 'make all'],
      ['tests', 'npm test'],
    ]);
    expect(memories.list(1).map((memory) => memory.topic)).toEqual(['Build']);
    expect(memories.count()).toBe(2);
  });

  it("edits (a human's) and forgets by id; unknown ids say so", () => {
    const memories = createMemoryRepository(open());
    const stored = memories.upsert({ ...by, topic: 't', text: 'old', at: 1 });
    expect(memories.edit(stored.id, 'new', 5)).toMatchObject({ text: 'new', source: 'human', updatedAt: 5 });
    expect(memories.get(stored.id)?.text).toBe('new');
    expect(memories.edit(999, 'x', 6)).toBeNull();
    expect(memories.forget(stored.id)).toBe(true);
    expect(memories.forget(stored.id)).toBe(false);
    expect(memories.list()).toEqual([]);
  });

  it("lists an item's decisions and questions, and counts them by kind since a time", () => {
    const notes = createAgentNoteRepository(open());
    const base = { sessionID: 's1', role: 'implementor', runtime: 'codex' } as const;
    notes.save({
      ...base,
      kind: 'decision',
      workItemID: '7',
      text: 'Use ESM',
      why: 'repo is ESM',
      createdAt: 10,
    });
    notes.save({
      ...base,
      kind: 'question',
      workItemID: '7',
      text: 'Hello or hi?',
      why: null,
      createdAt: 20,
    });
    notes.save({
      ...base,
      kind: 'decision',
      workItemID: null,
      text: 'Split it',
      why: 'too big',
      createdAt: 30,
    });
    expect(notes.listForItem('7').map((note) => note.text)).toEqual(['Use ESM', 'Hello or hi?']);
    expect(notes.listForItem('7', 'decision').map((note) => note.why)).toEqual(['repo is ESM']);
    expect(notes.listForItem(null).map((note) => note.text)).toEqual(['Split it']);
    expect(notes.list('decision').map((note) => note.text)).toEqual(['Split it', 'Use ESM']);
    expect(notes.list('decision', { since: 15, limit: 5 }).map((note) => note.text)).toEqual(['Split it']);
    expect(notes.count()).toEqual({ decision: 2, question: 1 });
    expect(notes.count(25)).toEqual({ decision: 1, question: 0 });
  });
});
