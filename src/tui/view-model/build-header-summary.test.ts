import { describe, expect, it } from 'vitest';
import {
  buildPipeline,
  buildPlannerRun,
  buildRevision,
  buildSpec,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { buildHeaderSummary } from './build-header-summary.ts';

const scheduler = { active: 2, queued: 1, maxConcurrentAgents: 4 };

describe('buildHeaderSummary', () => {
  it('passes the scheduler numbers through and counts open items', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'ready' }),
        buildWorkItem({ id: '2', status: 'closed' }),
        buildWorkItem({ id: '3', status: 'approved' }),
      ],
    });
    expect(buildHeaderSummary(state, scheduler)).toMatchObject({
      running: 2,
      queued: 1,
      maxAgents: 4,
      openItems: 2,
    });
  });

  it('counts the revisions whose checks are pending', () => {
    const state = buildTestState({
      revisions: [
        buildRevision({ id: 'r1', workItemID: '1', pipeline: buildPipeline('pending') }),
        buildRevision({ id: 'r2', workItemID: '2', pipeline: buildPipeline('success') }),
        buildRevision({ id: 'r3', workItemID: '3', pipeline: buildPipeline('pending') }),
        buildRevision({ id: 'r4', workItemID: '4', pipeline: null }),
      ],
    });
    expect(buildHeaderSummary(state, scheduler).checksPending).toBe(2);
    expect(buildHeaderSummary(buildTestState(), scheduler).checksPending).toBe(0);
  });

  it('counts the items waiting on a human: parked, or in review with red checks', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'needs-refinement' }),
        buildWorkItem({ id: '2', status: 'blocked' }),
        buildWorkItem({ id: '3', status: 'review', linkedRevision: 'r3' }),
        buildWorkItem({ id: '4', status: 'review', linkedRevision: 'r4' }),
        buildWorkItem({ id: '5', status: 'ready' }),
      ],
      revisions: [
        buildRevision({ id: 'r3', workItemID: '3', pipeline: buildPipeline('failure') }),
        buildRevision({ id: 'r4', workItemID: '4', pipeline: buildPipeline('success') }),
      ],
    });
    expect(buildHeaderSummary(state, scheduler).waitingOnHuman).toBe(3);
    expect(buildHeaderSummary(buildTestState(), scheduler).waitingOnHuman).toBe(0);
  });

  it('planner running: the newest planner run that is requested or running', () => {
    const state = buildTestState({
      agentRuns: [
        buildPlannerRun({ sessionID: 'old', status: 'failed', requestedAt: 1 }),
        buildPlannerRun({ sessionID: 'new', status: 'requested', requestedAt: 2 }),
      ],
    });
    const { planner } = buildHeaderSummary(state, scheduler);
    expect(planner.kind).toBe('running');
    expect(planner.kind === 'running' && planner.run.sessionID).toBe('new');
  });

  it('planner queued when a planner request waits in the queue', () => {
    const state = buildTestState({
      agentRuns: [buildPlannerRun({ sessionID: 'old', status: 'failed' })],
      dispatchQueue: [
        {
          key: 'planner',
          command: { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 'a1' } },
          reason: 'backoff',
          notBefore: 5,
          priority: 0,
          queuedAt: 0,
        },
      ],
    });
    expect(buildHeaderSummary(state, scheduler).planner.kind).toBe('queued');
  });

  it('planner failed when its latest run failed or timed out, not when an older one did', () => {
    for (const status of ['failed', 'timed-out'] as const) {
      const state = buildTestState({ agentRuns: [buildPlannerRun({ sessionID: 'p', status })] });
      expect(buildHeaderSummary(state, scheduler).planner.kind).toBe('failed');
    }
    const recovered = buildTestState({
      agentRuns: [
        buildPlannerRun({ sessionID: 'a', status: 'failed', requestedAt: 1 }),
        buildPlannerRun({ sessionID: 'b', status: 'completed', requestedAt: 2 }),
      ],
    });
    expect(buildHeaderSummary(recovered, scheduler).planner).toEqual({ kind: 'idle', unplannedSpecs: 0 });
  });

  it('planner idle counts approved specs not planned at their current version', () => {
    const state = buildTestState({
      specs: [
        buildSpec({ filePath: 'a.md', blobSHA: 'a2' }),
        buildSpec({ filePath: 'b.md', blobSHA: 'b1' }),
        buildSpec({ filePath: 'c.md', blobSHA: 'c1' }),
        buildSpec({ filePath: 'd.md', blobSHA: 'd1', frontmatterStatus: 'draft' }),
      ],
      lastPlannedSHAs: { 'a.md': 'a1', 'b.md': 'b1' },
    });
    expect(buildHeaderSummary(state, scheduler).planner).toEqual({ kind: 'idle', unplannedSpecs: 2 });
  });

  it('names the runtimes and accounts a limit holds back now, soonest first, and forgets expired ones', () => {
    const at = (hours: number, minutes: number) => new Date(2026, 10, 23, hours, minutes).getTime();
    const parking = (key: string, account: string | null, until: number) => ({
      key,
      runtime: 'claude',
      account,
      reason: 'usage-limit' as const,
      until,
      since: at(12, 0),
      hits: 1,
      message: "You've hit your limit",
    });
    const state = {
      ...buildTestState({}),
      parkings: {
        claude: parking('claude', null, at(14, 5)),
        'claude/account:work': parking('claude/account:work', 'work', at(13, 30)),
        'claude/account:old': parking('claude/account:old', 'old', at(12, 30)),
      },
    };
    expect(buildHeaderSummary(state, scheduler, at(13, 0)).parked).toEqual([
      'claude account work exhausted until 13:30 (usage limit)',
      'claude parked until 14:05 (usage limit)',
    ]);
  });
});
