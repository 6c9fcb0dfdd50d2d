import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import { MIGRATIONS } from '../migrations/index.ts';
import { type Database, openDatabase } from '../open-database.ts';
import {
  type BudgetLedgerRepository,
  createBudgetLedgerRepository,
  type LedgerEntry,
} from './budget-ledger-repository.ts';

let dir: ReturnType<typeof createTempDir>;
let db: Database;
let ledger: BudgetLedgerRepository;

beforeEach(() => {
  dir = createTempDir();
  db = openDatabase(join(dir.path, 'flotilla.db'));
});

afterEach(() => {
  if (db.open) db.close();
  dir.remove();
});

const entry = (overrides: Partial<LedgerEntry>): LedgerEntry => ({
  sessionID: 's1',
  workItemID: '1',
  role: 'implementor',
  runtime: 'claude',
  model: null,
  account: null,
  day: '2026-11-23',
  month: '2026-11',
  costUSD: 0.5,
  inputTokens: 1000,
  outputTokens: 10,
  ended: false,
  budgetStop: null,
  requestedAt: 1,
  updatedAt: 1,
  ...overrides,
});

describe.each(STATE_BACKENDS)('budget ledger on %s', (backend) => {
  const state = useStateBackend(backend);
  beforeEach(() => {
    ledger = createBudgetLedgerRepository(state.connection() ?? db);
  });

  it('keeps one row per run, updated as it reports usage and ends, model kept once known', () => {
    ledger.record(entry({ model: 'claude-opus-5-5' }));
    ledger.record(entry({ costUSD: 0.9, ended: true, budgetStop: 'item', updatedAt: 2 }));
    expect(ledger.get('s1')).toMatchObject({
      costUSD: 0.9,
      ended: true,
      budgetStop: 'item',
      model: 'claude-opus-5-5',
    });
  });

  it('maps each run to its model, leaving out runs whose model is unknown', () => {
    ledger.record(entry({ sessionID: 'a', model: 'claude-sonnet-5' }));
    ledger.record(entry({ sessionID: 'b', model: null }));
    ledger.record(entry({ sessionID: 'c', model: 'gpt-5.4' }));
    expect(ledger.modelsBySession()).toEqual(
      new Map([
        ['a', 'claude-sonnet-5'],
        ['c', 'gpt-5.4'],
      ]),
    );
  });

  it('sums spend by day, month and item, leaving out the sessions counted live', () => {
    ledger.record(entry({ sessionID: 'a', costUSD: 1, ended: true }));
    ledger.record(entry({ sessionID: 'b', workItemID: '2', costUSD: 2, ended: true }));
    ledger.record(entry({ sessionID: 'c', day: '2026-11-24', costUSD: 4 }));
    ledger.record(entry({ sessionID: 'd', day: '2026-12-01', month: '2026-12', costUSD: 8 }));
    expect(ledger.spentUSD({ day: '2026-11-23' }, [])).toBe(3);
    expect(ledger.spentUSD({ month: '2026-11' }, ['b'])).toBe(5);
    expect(ledger.spentUSD({ workItemID: '1' }, [])).toBe(13);
    expect(ledger.recentRunCosts('implementor', 5, ['a'])).toEqual([2]);
    expect(ledger.spendByWorkItem(10)).toEqual([
      { workItemID: '1', costUSD: 13, runs: 3 },
      { workItemID: '2', costUSD: 2, runs: 1 },
    ]);
    expect(ledger.totals({ month: '2026-11' })).toEqual({ costUSD: 7, runs: 3, scriptedCostUSD: 0 });
  });

  it("leaves scripted runs' made-up costs out of every sum a cap reads, and reports them apart", () => {
    ledger.record(entry({ sessionID: 'real', costUSD: 1, ended: true }));
    ledger.record(entry({ sessionID: 'dry', runtime: 'scripted', costUSD: 0.0264, ended: true }));
    ledger.record(
      entry({ sessionID: 'dry-2', workItemID: '2', runtime: 'scripted', costUSD: 0.5, ended: true }),
    );
    expect(ledger.spentUSD({ day: '2026-11-23' }, [])).toBe(1);
    expect(ledger.spentUSD({ month: '2026-11' }, [])).toBe(1);
    expect(ledger.spentUSD({ workItemID: '1' }, [])).toBe(1);
    expect(ledger.spentUSD({}, [])).toBe(1);
    expect(ledger.recentRunCosts('implementor', 5)).toEqual([1]);
    expect(ledger.spendByWorkItem(10)).toEqual([{ workItemID: '1', costUSD: 1, runs: 1 }]);
    expect(ledger.totals({ day: '2026-11-23' })).toEqual({ costUSD: 1, runs: 3, scriptedCostUSD: 0.5264 });
  });

  it('keeps runtime cap overrides until reset (null: the cap removed)', () => {
    ledger.setCapOverride('dailyUsd', 20, 1);
    ledger.setCapOverride('perItemUsd', null, 1);
    expect(ledger.capOverrides()).toEqual({ dailyUsd: 20, perItemUsd: null });
    ledger.clearCapOverride('dailyUsd');
    expect(ledger.capOverrides()).toEqual({ perItemUsd: null });
  });

  it('keeps what a restarted process reads, and ties in time go newest-recorded first', () => {
    ledger.record(entry({ sessionID: 'first', costUSD: 1, ended: true }));
    ledger.record(entry({ sessionID: 'second', costUSD: 2, ended: true }));
    ledger = createBudgetLedgerRepository(state.reopen() ?? db);
    expect(ledger.recentRunCosts('implementor', 5)).toEqual([2, 1]);
    expect(ledger.get('second')).toMatchObject({ costUSD: 2, ended: true, requestedAt: 1 });
  });
});

describe('budget ledger migrations (SQLite)', () => {
  it('migration 006 carries runs recorded before it into the ledger, by their UTC day', () => {
    db.close();
    const path = join(dir.path, 'old.db');
    const old = openDatabase(path, { migrations: MIGRATIONS.filter((migration) => migration.version < 6) });
    old
      .prepare(
        `INSERT INTO agent_runs (session_id, role, status, work_item_id, requested_at, ended_at, cost_usd, runtime)
         VALUES ('old', 'reviewer', 'completed', '3', ?, ?, 0.25, 'claude')`,
      )
      .run(Date.parse('2026-10-31T23:30:00Z'), Date.parse('2026-10-31T23:40:00Z'));
    old.close();
    db = openDatabase(path);
    expect(createBudgetLedgerRepository(db).get('old')).toMatchObject({
      role: 'reviewer',
      workItemID: '3',
      day: '2026-10-31',
      month: '2026-10',
      costUSD: 0.25,
      ended: true,
    });
  });
});
