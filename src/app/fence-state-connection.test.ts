import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { createLeaderLease, type LeaderLease, LeaseLostError } from '../cluster/create-leader-lease.ts';
import type { EngineEvent } from '../domain/index.ts';
import { applyStateUpdate } from '../engine/state-store/apply-state-update.ts';
import { buildInitialEngineState, type EngineState } from '../engine/state-store/engine-state.ts';
import {
  createEngineStatePersistence,
  type EngineStatePersistence,
  openDatabase,
  openPostgresState,
  type SqlConnection,
} from '../storage/index.ts';
import { fenceStateConnection } from './fence-state-connection.ts';

let postgres: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

/** One controller: its lease, its fenced state connection and the engine's persistence over it. */
interface Controller {
  lease: LeaderLease;
  token: number;
  lost: LeaseLostError[];
  /** Leading by its own reckoning (a paused process that just woke still believes it leads). */
  believesItLeads: boolean;
  persistence: EngineStatePersistence;
  state: EngineState;
  sql: SqlConnection;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let dir: ReturnType<typeof createTempDir>;
const opened: Controller[] = [];
let leaseName = '';
beforeEach(() => {
  dir = createTempDir();
  leaseName = `controller-${Math.random().toString(36).slice(2, 8)}`;
});
afterEach(() => {
  for (const controller of opened.splice(0)) controller.sql.close();
  dir.remove();
});

async function startController(holder: string, ttlMs: number): Promise<Controller> {
  const lease = createLeaderLease({ pool, name: leaseName, holder, ttlMs });
  let token: number | null = null;
  for (let tries = 0; token === null; tries += 1) {
    if (tries > 200) throw new Error(`${holder} never took the lease`);
    token = await lease.tryAcquire();
    if (token === null) await sleep(50);
  }
  const db = openDatabase(join(dir.path, holder, 'flotilla.db'));
  const self: Controller = {
    lease,
    token,
    lost: [],
    believesItLeads: true,
    persistence: undefined as unknown as EngineStatePersistence, // set just below, once the fence exists
    state: buildInitialEngineState(),
    sql: openPostgresState(postgres.url),
  };
  const fenced = fenceStateConnection(self.sql, {
    name: leaseName,
    holder,
    token,
    leading: () => self.believesItLeads,
    onLost: (error) => self.lost.push(error),
  });
  self.persistence = createEngineStatePersistence(db, { sharedState: fenced });
  opened.push(self);
  return self;
}

/** Applies the event as the engine does, then hands it to the persistence listener. */
function feed(to: Controller, event: EngineEvent): void {
  to.state = applyStateUpdate(to.state, event).state;
  to.persistence.record(event, to.state);
}

const requested = (sessionID: string): EngineEvent => ({
  type: 'implementorRequested',
  sessionID,
  workItemID: '7',
  branchName: 'flotilla/7',
  at: 100,
  estimatedFiles: [],
});

const storedRuns = async () =>
  (await pool.query<{ session_id: string }>('SELECT session_id FROM flotilla_state.agent_runs')).rows
    .map((row) => row.session_id)
    .sort();

describe("the controller's state writes on PostgreSQL, fenced by its lease", () => {
  it("a deposed leader's state write is refused and rolled back; the new leader's writes land", {
    timeout: 30_000,
  }, async () => {
    const paused = await startController('machine-a', 1500);
    feed(paused, requested('a-while-leading'));
    expect(await storedRuns()).toEqual(['a-while-leading']);

    // It stops renewing (paused); once its lease lapsed in the database's time another takes over.
    const successor = await startController('machine-b', 1500);
    expect(successor.token).toBe(paused.token + 1);

    // Woken, it still believes it leads (no renewal failed yet): the database refuses the write.
    expect(() => feed(paused, requested('a-after-takeover'))).toThrow(LeaseLostError);
    expect(paused.lost).toHaveLength(1);
    // Known lost: refused again, before any round trip.
    paused.believesItLeads = false;
    expect(() => feed(paused, requested('a-known-lost'))).toThrow(LeaseLostError);
    expect(paused.lost).toHaveLength(2);

    feed(successor, requested('b-leading'));
    expect(await storedRuns()).toEqual(['a-while-leading', 'b-leading']);
    // Nothing of the refused events' ledger rows either: each event's transaction rolled back whole.
    const ledger = await pool.query<{ session_id: string }>(
      'SELECT session_id FROM flotilla_state.budget_ledger ORDER BY session_id',
    );
    expect(ledger.rows.map((row) => row.session_id)).toEqual(['a-while-leading', 'b-leading']);
  });
});
