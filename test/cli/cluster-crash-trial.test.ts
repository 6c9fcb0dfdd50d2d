/**
 * The crash trial, small (issue #33; bench/cluster-crash-trial runs the ten-kill one): two controllers and
 * three workers as separate processes over a real PostgreSQL, a three-item scripted run, three `kill -9`
 * of the leading controller or a worker (each started again at once), chosen by a seeded random —
 * CRASH_TRIAL_SEED replays one. It ends with every item approved, one revision and one review each, never
 * two agents on one item, and the ledger's spend equal to the replies the workers finished.
 */
import { describe, expect, it } from 'vitest';
import { runCrashTrial } from '../support/cluster-crash-trial.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';

const cluster = setUpClusterPostgres();
const { fixtures } = cluster;

const SEED = Number(process.env.CRASH_TRIAL_SEED ?? 33);
const ITEMS = 3;

describe('the cluster crash trial', () => {
  it('kill -9 of controllers and workers mid-run: every item approved once, no two agents on one, spend counted once', async () => {
    process.stdout.write(`crash trial seed ${SEED} (CRASH_TRIAL_SEED=${SEED} replays it)\n`);
    const report = await runCrashTrial({
      fixtures,
      postgresUrl: cluster.url(),
      seed: SEED,
      items: ITEMS,
      kills: 3,
      timeoutMs: 240_000,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`crash trial: ${JSON.stringify(report)}\n`);
    expect(report.kills).toHaveLength(3);
    const titles = Array.from({ length: ITEMS }, (_, index) => `Add module${index + 1}`);
    expect(report.items).toEqual(titles.map((title) => ({ title, status: 'status:approved' })));
    expect(report.revisions).toEqual(Object.fromEntries(titles.map((title) => [title, 1])));
    expect(report.reviews).toEqual(Object.fromEntries(titles.map((title) => [title, 1])));
    expect(report.overlaps).toEqual([]);
    expect(report.repliesUSD).toBeGreaterThan(0);
    expect(report.ledgerUSD).toBeCloseTo(report.repliesUSD, 9);
    expect(report.controllerExits.every((code) => code === 0)).toBe(true);
  }, 300_000);
});
