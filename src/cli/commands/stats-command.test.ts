import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { resolveFlotillaPaths } from '../../config/index.ts';
import type { AgentRun } from '../../domain/index.ts';
import { createAgentRunRepository, createSqliteTracker, openDatabase } from '../../storage/index.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

let repo: TempGitRepo;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const HOUR = 3_600_000;
/** Everything happened in the last day, so the default window (7 days) holds it. */
const START = Date.now() - 20 * HOUR;

function implementor(
  sessionID: string,
  workItemID: string,
  hour: number,
  fields: Partial<AgentRun>,
): AgentRun {
  return {
    role: 'implementor',
    sessionID,
    workItemID,
    branchName: `flotilla/${workItemID}`,
    status: 'completed',
    logFilePath: null,
    error: null,
    requestedAt: START + hour * HOUR,
    endedAt: START + hour * HOUR + 60_000,
    usage: null,
    cancelRequestedBy: null,
    runtime: 'claude',
    ...fields,
  } as AgentRun;
}
const usage = (costUSD: number) => ({ costUSD, inputTokens: 1000, outputTokens: 100, turns: 3 });

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
  try {
    let clock = START;
    const tracker = createSqliteTracker(db, { now: () => clock });
    const runs = createAgentRunRepository(db);
    const item = tracker.workItems.createWorkItem({
      title: 'Add login',
      body: '',
      labels: [],
      blockedBy: [],
    });
    const other = tracker.workItems.createWorkItem({
      title: 'Add logout',
      body: '',
      labels: [],
      blockedBy: [],
    });
    runs.save(implementor('a1', item.id, 0, { usage: usage(0.25), account: 'work' }));
    clock = START + 1 * HOUR;
    const revision = tracker.revisions.recordRevision({
      workItemID: item.id,
      branchName: `flotilla/${item.id}`,
      patch: '',
      headSHA: '1'.repeat(40),
      title: '',
      body: '',
    });
    tracker.revisions.setPipeline(revision.id, '1'.repeat(40), { status: 'success' });
    clock = START + 2 * HOUR;
    tracker.revisions.postReview(revision.id, { verdict: 'approve', summary: 'ok', comments: [] });
    tracker.workItems.transitionStatus(item.id, 'approved');
    runs.save(
      implementor('b1', other.id, 3, {
        status: 'failed',
        failureReason: 'validation',
        error: 'npm test still fails',
        usage: usage(0.0024),
        runtime: 'scripted',
      }),
    );
    // A provider limit stopped this one: not a failed attempt.
    runs.save(
      implementor('c1', other.id, 4, {
        status: 'failed',
        failureReason: 'usage-limit',
        error: "You've hit your limit",
      }),
    );
  } finally {
    db.close();
  }
});
afterAll(() => repo.cleanup());

describe('flotilla stats', () => {
  it('prints the figures as JSON: the approved item, its cost and time, failures, stops, spend, trend', async () => {
    const result = await flotilla('stats', '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const stats = JSON.parse(result.stdout);
    expect(stats.totals).toMatchObject({
      runs: 3,
      failedRuns: 1,
      stoppedRuns: 1,
      costUSD: 0.25,
      scriptedCostUSD: 0.0024,
      itemsDone: 1,
      itemsMerged: 0,
      firstPassApprovalRate: 1,
    });
    expect(stats.items).toEqual([
      expect.objectContaining({
        workItemID: '1',
        title: 'Add login',
        outcome: 'approved',
        costUSD: 0.25,
        runs: 1,
        toApprovalMs: 2 * HOUR,
        reviewRounds: 1,
        firstPassApproved: true,
        checkRounds: 1,
      }),
    ]);
    expect(stats.failures).toEqual([{ reason: 'validation', runs: 1, costUSD: 0, scriptedCostUSD: 0.0024 }]);
    expect(stats.stopped).toEqual([{ reason: 'usage-limit', runs: 1, costUSD: 0, scriptedCostUSD: 0 }]);
    expect(stats.spend.byModel).toEqual([
      { key: null, runs: 3, costUSD: 0.25, scriptedCostUSD: 0.0024, inputTokens: 2000, outputTokens: 200 },
    ]);
    expect(stats.trend).toHaveLength(7);
    expect(stats.trend.reduce((sum: number, day: { runs: number }) => sum + day.runs, 0)).toBe(3);
  });

  it('prints aligned tables, the scripted cost marked and left out of the spend, the account, model unknown', async () => {
    const { code, stdout } = await flotilla('stats');
    expect(code).toBe(0);
    expect(stdout).toContain('1 item approved or merged (0 merged), first-pass approval 100% (1/1)');
    expect(stdout).toContain('spend $0.2500 + $0.0024 (scripted) · 3 runs, 1 failed, 1 stopped');
    const lines = stdout.split('\n');
    const header = lines.find((line) => line.startsWith('ITEM  '));
    const row = lines.find((line) => line.startsWith('#1 '));
    expect(row).toMatch(/^#1\s+approved\s+\$0\.2500\s+1\s+2h00m\s+-\s+1 \(first pass\)\s+1\s+Add login$/);
    // Aligned: each value starts under its column's header.
    for (const [column, value] of [
      ['COST', '$0.2500'],
      ['TO APPROVAL', '2h00m'],
      ['TITLE', 'Add login'],
    ])
      expect(row?.indexOf(value ?? '')).toBe(header?.indexOf(column ?? ''));
    expect(stdout).toMatch(/^validation\s+1\s+\$0\.0024 \(scripted\)$/m);
    // The stop in its own section, after the failures.
    expect(stdout).toMatch(/^STOPPED by reason[^\n]*\nREASON\s+RUNS\s+COST\nusage-limit\s+1\s+\$0\.0000$/m);
    expect(stdout).toMatch(/^model\s+unknown\s+3\s+\$0\.2500 \+ \$0\.0024 \(scripted\)\s+2000\/200$/m);
    expect(stdout).toMatch(/^account\s+work\s+1\s+\$0\.2500\s+1000\/100$/m);
    expect(stdout).toMatch(/^account\s+unknown\s+2\s+\$0\.0024 \(scripted\)\s+1000\/100$/m);
  });

  it('narrows to a window: a later start leaves the runs out but says so', async () => {
    const stats = JSON.parse((await flotilla('stats', '--since', '1h', '--json')).stdout);
    expect(stats.totals).toMatchObject({ runs: 0, itemsDone: 0, costUSD: 0 });
    expect(stats.since).toBe(new Date(Date.parse(stats.until) - HOUR).toISOString());
  });

  it('says where item outcomes come from when the provider is not the local tracker', async () => {
    const config = join(repo.root, 'flotilla.config.json');
    writeFileSync(config, JSON.stringify({ provider: 'github', github: { owner: 'acme', repo: 'app' } }));
    try {
      const result = await flotilla('stats', '--json');
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        'item outcomes (approvals, merges, rounds) come from the local tracker, which the github provider does not use',
      );
      expect(JSON.parse(result.stdout).totals.runs).toBe(3);
    } finally {
      rmSync(config);
    }
  });

  it('refuses a bad --since with exit 2, naming what it accepts, before touching the repository', async () => {
    const result = await flotilla('stats', '--since', 'last week');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "flotilla stats: --since 'last week': expected Nd (today and the N-1 days before), Nh (the last N hours), YYYY-MM-DD (from that day's local midnight) or 'all'\n",
    );
  });
});
