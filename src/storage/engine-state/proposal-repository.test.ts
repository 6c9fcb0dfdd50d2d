import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlannerResult } from '../../../test/support/shared/builders/build-planner-result.ts';
import {
  STATE_BACKENDS,
  type StateBackend,
  useStateBackend,
} from '../../../test/support/storage/use-state-backend.ts';
import type { EngineEvent, Proposal } from '../../domain/index.ts';
import { type Database, openDatabase } from '../open-database.ts';
import {
  createEngineStatePersistence,
  type EngineStatePersistence,
  type PersistedEngineState,
} from './create-engine-state-persistence.ts';
import { createProposalRepository } from './proposal-repository.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * The engine state as a process opens it: the SQLite file, and on PostgreSQL a new connection to the same
 * data (the previous one closed, as a new process after kill -9 would find it).
 */
function openFile(backend: StateBackend): { path: string; open: () => EngineStatePersistence } {
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-proposals-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'flotilla.db');
  let opened = 0;
  return {
    path,
    open() {
      const db: Database = openDatabase(path);
      cleanups.unshift(() => db.close());
      const sharedState = opened++ === 0 ? backend.connection() : backend.reopen();
      return createEngineStatePersistence(db, { ...(sharedState !== undefined && { sharedState }) });
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

describe.each(STATE_BACKENDS)('proposals (migration 012) on %s', (backendName) => {
  const backend = useStateBackend(backendName);

  it('a pending proposal is stored as soon as its event is recorded, and restored from it', () => {
    const file = openFile(backend);
    const writer = file.open();
    const created: EngineEvent = { type: 'proposalCreated', proposal, at: 1_000 };
    writer.record(created, stateWith({ '7': proposal }, { 'docs/specs/a.md': 'sha-2' }));
    // Another connection (a new process after kill -9) reads it back.
    const reader = file.open();
    expect(reader.loadInitialState().proposals).toEqual({ '7': proposal });
    expect(reader.proposals.get('7')).toEqual(proposal);
  });

  it('a rejection stores the decision and the planned SHAs the state went back to; only pending ones load', () => {
    const file = openFile(backend);
    let persistence = file.open();
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
    persistence = file.open();
    expect(persistence.loadInitialState().lastPlannedSHAs).toEqual({
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
    persistence = file.open();
    const restored = persistence.loadInitialState();
    expect(restored.proposals).toEqual({});
    expect(restored.lastPlannedSHAs).toEqual({});
    expect(persistence.proposals.list()).toEqual([rejected]);
    expect(persistence.proposals.list({ status: 'pending' })).toEqual([]);
  });

  it('lists newest first, by status, up to a limit; saving again rewrites the row', () => {
    const db: Database = openDatabase(':memory:');
    cleanups.unshift(() => db.close());
    const proposals = createProposalRepository(backend.connection() ?? db);
    const investigation: Proposal = {
      ...proposal,
      id: '9',
      kind: 'investigation',
      subjectID: '4',
      report: {
        mode: 'investigate',
        summary: 'found it',
        rootCause: 'a typo',
        evidence: ['the log'],
        files: ['a.ts'],
        fixes: [],
      },
      createdAt: 2_000,
    };
    proposals.save(proposal);
    proposals.save(investigation);
    expect(proposals.list().map((stored) => stored.id)).toEqual(['9', '7']);
    expect(proposals.list({ limit: 1 })).toEqual([investigation]);
    const accepted: Proposal = { ...proposal, status: 'accepted', decidedAt: 3_000, decidedBy: 'ada' };
    proposals.save(accepted);
    expect(proposals.get('7')).toEqual(accepted);
    expect(proposals.list({ status: 'pending' })).toEqual([investigation]);
    expect(proposals.get('8')).toBeNull();
  });
});
