import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlannerResult } from '../../../test/support/shared/builders/build-planner-result.ts';
import type { EngineEvent, Proposal } from '../../domain/index.ts';
import { type Database, openDatabase } from '../open-database.ts';
import {
  createEngineStatePersistence,
  type PersistedEngineState,
} from './create-engine-state-persistence.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function openFile(): { path: string; open: () => Database } {
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-proposals-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'flotilla.db');
  return {
    path,
    open() {
      const db = openDatabase(path);
      cleanups.unshift(() => db.close());
      return db;
    },
  };
}

const proposal: Proposal = {
  id: '7',
  kind: 'plan',
  status: 'pending',
  sessionID: 'planner-1',
  specSHAs: { 'docs/specs/a.md': 'sha-2' },
  basePlannedSHAs: {},
  result: buildPlannerResult(),
  revises: null,
  createdAt: 1_000,
  decidedAt: null,
  decidedBy: null,
  reason: null,
};

function stateWith(proposals: Record<string, Proposal>, lastPlannedSHAs: Record<string, string>) {
  return {
    agentRuns: {},
    lastPlannedSHAs,
    errors: [],
    parkings: {},
    waitingForInput: {},
    taskContext: {},
    proposals,
  } satisfies PersistedEngineState;
}

describe('proposals in SQLite (migration 012)', () => {
  it('a pending proposal is in the file as soon as its event is recorded, and restored from it', () => {
    const file = openFile();
    const writer = createEngineStatePersistence(file.open());
    const created: EngineEvent = { type: 'proposalCreated', proposal, at: 1_000 };
    writer.record(created, stateWith({ '7': proposal }, { 'docs/specs/a.md': 'sha-2' }));
    // Another connection (a new process after kill -9) reads it back.
    const reader = createEngineStatePersistence(file.open());
    expect(reader.loadInitialState().proposals).toEqual({ '7': proposal });
    expect(reader.proposals.get('7')).toEqual(proposal);
  });

  it('a rejection stores the decision and the planned SHAs the state went back to; only pending ones load', () => {
    const file = openFile();
    const persistence = createEngineStatePersistence(file.open());
    persistence.record(
      {
        type: 'plannerCompleted',
        sessionID: 'planner-1',
        specPaths: ['docs/specs/a.md'],
        result: buildPlannerResult(),
        logFilePath: null,
        usage: null,
        at: 900,
      },
      stateWith({}, { 'docs/specs/a.md': 'sha-2' }),
    );
    persistence.record(
      { type: 'proposalCreated', proposal, at: 1_000 },
      stateWith({ '7': proposal }, { 'docs/specs/a.md': 'sha-2' }),
    );
    expect(createEngineStatePersistence(file.open()).loadInitialState().lastPlannedSHAs).toEqual({
      'docs/specs/a.md': 'sha-2',
    });
    const rejected: Proposal = {
      ...proposal,
      status: 'rejected',
      decidedAt: 2_000,
      decidedBy: 'ada',
      reason: 'no',
    };
    persistence.record(
      {
        type: 'proposalDecided',
        proposalID: '7',
        decision: 'reject',
        reason: 'no',
        author: 'ada',
        source: 'tracker',
        at: 2_000,
      },
      // Never planned before this proposal: the spec is unplanned again.
      stateWith({ '7': rejected }, {}),
    );
    const restored = createEngineStatePersistence(file.open()).loadInitialState();
    expect(restored.proposals).toEqual({});
    expect(restored.lastPlannedSHAs).toEqual({});
    expect(persistence.proposals.list()).toEqual([rejected]);
    expect(persistence.proposals.list({ status: 'pending' })).toEqual([]);
  });
});
