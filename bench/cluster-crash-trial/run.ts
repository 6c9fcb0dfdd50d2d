/**
 * The crash trial of issue #33 "Done when", at full size: two controllers and three workers as separate
 * processes over a real PostgreSQL (started here as an ordinary user, as the tests do), a 10-item scripted
 * run, 10 `kill -9` of the leading controller or a worker during it, each started again at once
 * (test/support/cluster-crash-trial.ts). Too slow for the suite on a 2-core machine; the test
 * (test/cli/cluster-crash-trial.test.ts) runs a 3-item, 3-kill one.
 * Run: npm run bench:cluster-crash-trial  (ITEMS=10, KILLS=10, SEED=<random; printed>, LATENCY_MS=1000)
 * Exits 1 when a check fails: an item not approved, lost or duplicated; a revision or review duplicated; two
 * agents on one item; the ledger's spend not the sum of the finished replies. SEED=<n> replays a trial.
 */

import { runCrashTrial } from '../../test/support/cluster-crash-trial.ts';
import { createRunFixtures } from '../../test/support/create-run-fixtures.ts';
import { startPostgres } from '../../test/support/start-postgres.ts';

const ITEMS = Number(process.env.ITEMS ?? 10);
const KILLS = Number(process.env.KILLS ?? 10);
const SEED = Number(process.env.SEED ?? Math.floor(Math.random() * 1_000_000));
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 1000);

const fixtures = createRunFixtures();
const postgres = await startPostgres();
console.log(`crash trial: ${ITEMS} items, ${KILLS} kills, seed ${SEED} (SEED=${SEED} replays it)`);
let failures: string[] = [];
try {
  const report = await runCrashTrial({
    fixtures,
    postgresUrl: postgres.url,
    seed: SEED,
    items: ITEMS,
    kills: KILLS,
    latencyMs: LATENCY_MS,
    timeoutMs: 1_200_000,
    log: (line) => console.log(`  ${line}`),
  });
  const titles = Array.from({ length: ITEMS }, (_, index) => `Add module${index + 1}`);
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };
  check(report.kills.length === KILLS, `${report.kills.length} kills, not ${KILLS} (the run ended first)`);
  check(
    JSON.stringify(report.items.map((item) => item.title)) === JSON.stringify(titles),
    `items lost or duplicated: ${report.items.map((item) => item.title).join(', ')}`,
  );
  for (const item of report.items)
    check(item.status === 'status:approved', `${item.title} ended ${item.status}, not approved`);
  for (const title of titles) {
    check(report.revisions[title] === 1, `${title}: ${report.revisions[title] ?? 0} revisions`);
    check(report.reviews[title] === 1, `${title}: ${report.reviews[title] ?? 0} reviews`);
  }
  for (const overlap of report.overlaps) check(false, overlap);
  check(
    Math.abs(report.ledgerUSD - report.repliesUSD) < 1e-9,
    `ledger $${report.ledgerUSD} but the finished replies cost $${report.repliesUSD}`,
  );
  check(
    report.controllerExits.every((code) => code === 0),
    `controller exits ${report.controllerExits.join(',')}`,
  );
  console.log(`  ${(report.durationMs / 1000).toFixed(1)} s; runs by status ${JSON.stringify(report.runs)}`);
  for (const failed of report.failedRuns) console.log(`    not completed: ${failed}`);
  console.log(`  ledger $${report.ledgerUSD.toFixed(4)}, finished replies $${report.repliesUSD.toFixed(4)}`);
} catch (error) {
  failures = [`the trial did not finish: ${error instanceof Error ? error.message.slice(0, 4000) : error}`];
} finally {
  await fixtures.cleanup();
  postgres.stop();
}
if (failures.length > 0) {
  console.log(`FAILED (seed ${SEED}):\n${failures.map((line) => `  - ${line}`).join('\n')}`);
  process.exitCode = 1;
} else console.log(`passed (seed ${SEED})`);
