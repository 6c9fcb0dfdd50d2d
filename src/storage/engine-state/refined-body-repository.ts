import type { AgentRun, EngineEvent } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

/**
 * The body versions refined per work item (migration 018; the engine's `refinedBodies`), each with the refine
 * run given it while that run may still go on (migration 020), so a run the control plane's stop interrupted
 * gives its version back.
 */
export interface RefinedBodyRepository {
  /** Work item id → its refined body versions, oldest first. */
  load(): Record<string, string[]>;
  /** Records each version of `bodyHashes` for the item; versions already recorded are left as they are. */
  save(workItemID: string, bodyHashes: readonly string[], at: number): void;
  /** A refine run (a resume too) was given the version: recorded, as that run's. */
  saveRun(workItemID: string, bodyHash: string, sessionID: string, at: number): void;
  /** The versions these runs were given are not refined after all (stopped from outside, interrupted). */
  removeRuns(sessionIDs: readonly string[]): void;
}

/** What the persisted engine state holds of runs and refined bodies (storage never imports the engine). */
export interface RefinedBodiesState {
  agentRuns: Readonly<Record<string, AgentRun>>;
  refinedBodies?: Readonly<Record<string, readonly string[]>>;
}

const INSERT_REFINED_BODY = `
  INSERT INTO refined_bodies (work_item_id, body_hash, refined_at) VALUES (?, ?, ?)
  ON CONFLICT (work_item_id, body_hash) DO NOTHING
`;
const UPSERT_RUN_BODY = `
  INSERT INTO refined_bodies (work_item_id, body_hash, refined_at, session_id) VALUES (?, ?, ?, ?)
  ON CONFLICT (work_item_id, body_hash) DO UPDATE SET session_id = excluded.session_id
`;

export function createRefinedBodyRepository(target: SqlTarget): RefinedBodyRepository {
  const sql = asSqlConnection(target);
  return {
    load() {
      const rows = sql.all<{ work_item_id: string; body_hash: string }>(
        'SELECT work_item_id, body_hash FROM refined_bodies ORDER BY work_item_id, refined_at, body_hash',
      );
      const byItem: Record<string, string[]> = {};
      for (const row of rows) byItem[row.work_item_id] = [...(byItem[row.work_item_id] ?? []), row.body_hash];
      return byItem;
    },
    save(workItemID, bodyHashes, at) {
      sql.transaction(() => {
        for (const hash of bodyHashes) sql.run(INSERT_REFINED_BODY, [workItemID, hash, at]);
      });
    },
    saveRun(workItemID, bodyHash, sessionID, at) {
      sql.run(UPSERT_RUN_BODY, [workItemID, bodyHash, at, sessionID]);
    },
    removeRuns(sessionIDs) {
      sql.transaction(() => {
        for (const id of sessionIDs) sql.run('DELETE FROM refined_bodies WHERE session_id = ?', [id]);
      });
    },
  };
}

/**
 * The refined-bodies part of recording an event (issue #29): a refine run requested records the version it
 * was given as its own; one stopped from outside (`cancelled`: a user's cancel, Ctrl-C, the control plane
 * stopping) takes it back, as the engine's state does; an applied refinement records the version it wrote.
 */
export function recordRefinedBodies(
  repository: RefinedBodyRepository,
  event: EngineEvent,
  stateAfter: RefinedBodiesState,
  at: number,
): void {
  if (event.type === 'implementorRequested' && event.mode === 'refine') {
    const run = stateAfter.agentRuns[event.sessionID];
    const bodyHash = run?.role === 'implementor' ? run.bodyHash : undefined;
    if (bodyHash !== undefined) repository.saveRun(event.workItemID, bodyHash, event.sessionID, at);
  }
  if (event.type === 'implementorFailed' && event.reason === 'cancelled')
    repository.removeRuns([event.sessionID]);
  if (event.type === 'modeResultApplied') {
    const hashes = stateAfter.refinedBodies?.[event.workItemID];
    if (hashes !== undefined) repository.save(event.workItemID, hashes, at);
  }
}
