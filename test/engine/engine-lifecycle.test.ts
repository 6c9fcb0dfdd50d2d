import { afterEach, describe, expect, it } from 'vitest';
import {
  buildAddFilePatch,
  buildImplementorResult,
  buildPlannerResult,
  buildReviewerResult,
} from '../../src/runtimes/scripted/build-scripted-results.ts';
import {
  buildFailureRun,
  buildHangingRun,
  buildProvisioningFailureRun,
  buildResultRun,
} from '../../src/runtimes/scripted/build-scripted-runs.ts';
import { createEngineHarness, type EngineHarness } from '../support/engine-harness.ts';

let harness: EngineHarness | null = null;
afterEach(async () => {
  await harness?.engine.stop();
  harness = null;
});

function use(h: EngineHarness): EngineHarness {
  harness = h;
  return h;
}

const statusOf = (h: EngineHarness, id: string) => h.engine.getState().workItems[id]?.status;

describe('engine: full lifecycle with the doubles', () => {
  it('plans a spec into dependent items, implements, reviews with one round of changes, and approves', async () => {
    const h = use(
      createEngineHarness({
        script: {
          planner: [
            buildResultRun(
              buildPlannerResult({
                create: [
                  {
                    tempID: 'api',
                    title: 'Build the API',
                    body: 'Objective: API',
                    labels: ['priority:high'],
                    blockedBy: [],
                  },
                  {
                    tempID: 'ui',
                    title: 'Build the UI',
                    body: 'Objective: UI',
                    labels: [],
                    blockedBy: ['api'],
                  },
                ],
              }),
            ),
          ],
          implementor: (params) => {
            const id = params.role === 'implementor' ? params.workItemID : '?';
            return buildResultRun(
              buildImplementorResult('completed', {
                summary: `Implemented #${id}`,
                patch: buildAddFilePatch(`src/item-${id}.ts`, `export const item = ${id};\n`),
              }),
              { output: [`working on #${id}`] },
            );
          },
          reviewer: [
            buildResultRun(buildReviewerResult('needs-changes', { summary: 'Missing a test' })),
            buildResultRun(buildReviewerResult('approve', { summary: 'Good now' })),
            buildResultRun(buildReviewerResult('approve', { summary: 'Fine' })),
          ],
        },
      }),
    );
    h.provider.control.addSpec({ filePath: 'docs/specs/feature.md', frontmatterStatus: 'approved' });
    await h.engine.start();
    await h.settle();

    // Planner created #1 (api) and #2 (ui, blocked by #1). #1 got a revision whose checks are pending.
    expect(h.runs('planner')).toHaveLength(1);
    expect(h.engine.getState().workItems['2']?.blockedBy).toEqual(['1']);
    expect(statusOf(h, '1')).toBe('review');
    expect(statusOf(h, '2')).toBe('pending');
    const revisionID = h.engine.getState().workItems['1']?.linkedRevision;
    expect(revisionID).toBeTruthy();

    // Checks pass → reviewer asks for changes → #1 goes back for rework with the revision linked.
    h.provider.control.setPipeline(revisionID!, 'success');
    await h.settle();
    expect(h.runs('reviewer')).toHaveLength(1);
    expect(
      h.runs('implementor').filter((r) => r.role === 'implementor' && r.workItemID === '1'),
    ).toHaveLength(2);
    expect(statusOf(h, '1')).toBe('review');

    // Checks pass again → approve → #2 unblocked, implemented, reviewed, approved.
    h.provider.control.setPipeline(revisionID!, 'success');
    await h.settle();
    expect(statusOf(h, '1')).toBe('approved');
    const secondRevision = h.engine.getState().workItems['2']?.linkedRevision;
    expect(statusOf(h, '2')).toBe('review');
    h.provider.control.setPipeline(secondRevision!, 'success');
    await h.settle();
    expect(statusOf(h, '2')).toBe('approved');

    // Summaries and reviews were written through the executor.
    const comments = h.provider.control.workItemComments('1');
    expect(comments.some((c) => c.includes('Implemented #1'))).toBe(true);
    expect(comments.some((c) => c.includes('Missing a test'))).toBe(true);
    expect(h.provider.control.reviews(revisionID!).length).toBeGreaterThanOrEqual(1);
    expect(h.engine.getState().lastPlannedSHAs['docs/specs/feature.md']).toBe(
      h.engine.getState().specs['docs/specs/feature.md']?.blobSHA,
    );
    expect(h.engine.getState().errors).toEqual([]);
    expect(h.runs().every((run) => run.status === 'completed')).toBe(true);
  });
});

describe('engine: planning', () => {
  it('starts exactly one planner for N approved specs at startup, with every path', async () => {
    const h = use(createEngineHarness({ script: { planner: [buildResultRun(buildPlannerResult())] } }));
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      h.provider.control.addSpec({ filePath: `docs/specs/${name}.md`, frontmatterStatus: 'approved' });
    }
    h.provider.control.addSpec({ filePath: 'docs/specs/draft.md', frontmatterStatus: 'draft' });
    await h.engine.start();
    await h.settle();
    expect(h.adapter.control.startedParams()).toEqual([
      expect.objectContaining({
        role: 'planner',
        specPaths: [
          'docs/specs/a.md',
          'docs/specs/b.md',
          'docs/specs/c.md',
          'docs/specs/d.md',
          'docs/specs/e.md',
        ],
      }),
    ]);
    expect(Object.keys(h.engine.getState().lastPlannedSHAs)).toHaveLength(5);
    expect(h.engine.getState().errors).toEqual([]);
  });

  it('plans again a spec edited while the planner was running (planned SHA = the SHA it was given)', async () => {
    const h = use(
      createEngineHarness({ script: { planner: [buildHangingRun(), buildResultRun(buildPlannerResult())] } }),
    );
    h.provider.control.addSpec({ filePath: 'docs/specs/a.md', frontmatterStatus: 'approved', content: 'v1' });
    await h.engine.start();
    const [first] = await h.adapter.control.waitForStarted(1);
    const givenSHA = h.engine.getState().specs['docs/specs/a.md']?.blobSHA;
    h.provider.control.editSpec('docs/specs/a.md', { content: 'v2' });
    await h.engine.pollNow();
    h.adapter.control.resolve(first!.sessionID, buildPlannerResult());
    await h.settle();
    const planners = h.runs('planner');
    expect(planners).toHaveLength(2);
    expect(planners[0]?.role === 'planner' && planners[0].specSHAs['docs/specs/a.md']).toBe(givenSHA);
    expect(h.engine.getState().lastPlannedSHAs['docs/specs/a.md']).toBe(
      h.engine.getState().specs['docs/specs/a.md']?.blobSHA,
    );
    expect(h.engine.getState().lastPlannedSHAs['docs/specs/a.md']).not.toBe(givenSHA);
  });

  it('does not re-plan specs already planned before a restart (planned SHAs restored)', async () => {
    const first = createEngineHarness({ script: { planner: [buildResultRun(buildPlannerResult())] } });
    first.provider.control.addSpec({ filePath: 'docs/specs/a.md', frontmatterStatus: 'approved' });
    await first.engine.start();
    await first.settle();
    await first.engine.stop();
    const planned = first.engine.getState().lastPlannedSHAs;
    const h = use(
      createEngineHarness({
        config: { initialState: { lastPlannedSHAs: planned } },
        script: { planner: [] },
      }),
    );
    h.provider.control.addSpec({ filePath: 'docs/specs/a.md', frontmatterStatus: 'approved' });
    await h.engine.start();
    await h.settle();
    expect(h.adapter.control.startedParams()).toEqual([]);
  });
});

describe('engine: failure paths', () => {
  it('provisioning failure: the run goes requested → failed, the item is retried and then completes', async () => {
    const h = use(
      createEngineHarness({
        script: {
          implementor: [
            buildProvisioningFailureRun('git worktree add failed'),
            buildResultRun(buildImplementorResult()),
          ],
        },
      }),
    );
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    await h.settle();
    const [failed, succeeded] = h.runs('implementor');
    expect(failed).toEqual(
      expect.objectContaining({
        status: 'failed',
        error: 'provisioning failed: git worktree add failed',
        logFilePath: null,
      }),
    );
    expect(h.events.some((e) => e.type === 'implementorStarted' && e.sessionID === failed?.sessionID)).toBe(
      false,
    );
    expect(succeeded?.status).toBe('completed');
    expect(statusOf(h, '1')).toBe('review');
  });

  it('retry exhaustion parks the item as blocked and writes the last failure to it', async () => {
    const h = use(
      createEngineHarness({
        config: { scheduler: { maxAttempts: 3 } },
        script: {
          implementor: [1, 2, 3, 4].map((n) => buildFailureRun('error', `model overloaded (${n})`)),
        },
      }),
    );
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    await h.settle();
    expect(h.runs('implementor')).toHaveLength(3);
    expect(statusOf(h, '1')).toBe('blocked');
    const comments = h.provider.control.workItemComments('1');
    expect(comments.at(-1)).toContain('model overloaded (3)');
    // Backoff: the retries did not start immediately after each failure.
    const [a, b] = h.runs('implementor');
    expect((b?.requestedAt ?? 0) - (a?.endedAt ?? 0)).toBeGreaterThanOrEqual(10);
  });

  it('a run that exceeds its duration is recorded as timed out and retried', async () => {
    const h = use(
      createEngineHarness({
        adapterOptions: { maxDurationMs: 20 },
        script: { implementor: [buildHangingRun(), buildResultRun(buildImplementorResult())] },
      }),
    );
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    await h.settle();
    expect(h.runs('implementor').map((r) => r.status)).toEqual(['timed-out', 'completed']);
  });

  it('a silent run is cancelled by stall detection and reported as timed out', async () => {
    const h = use(
      createEngineHarness({
        config: { scheduler: { stallTimeout: 0.05, maxAttempts: 1 } },
        script: { implementor: [buildHangingRun()] },
      }),
    );
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    await h.settle();
    const [run] = h.runs('implementor');
    expect(run).toEqual(
      expect.objectContaining({ status: 'timed-out', error: expect.stringContaining('stalled') }),
    );
    expect(h.adapter.control.cancelledSessionIDs()).toEqual([run?.sessionID]);
    expect(statusOf(h, '1')).toBe('blocked');
  });

  it('a completed run with an empty patch ends as no-changes: a comment and needs-refinement, never retried', async () => {
    const h = use(
      createEngineHarness({
        config: { scheduler: { maxAttempts: 3 } },
        script: {
          implementor: [
            buildResultRun({ role: 'implementor', outcome: 'completed', summary: 'done', patch: '' }),
            buildResultRun({
              role: 'implementor',
              outcome: 'completed',
              summary: 'again',
              patch: 'never used',
            }),
          ],
        },
      }),
    );
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    await h.settle();
    expect(h.runs('implementor')).toEqual([
      expect.objectContaining({
        status: 'failed',
        failureReason: 'no-changes',
        error: expect.stringContaining('empty patch'),
      }),
    ]);
    expect(statusOf(h, '1')).toBe('needs-refinement');
    expect(h.provider.control.workItemComments('1')).toEqual([
      expect.stringContaining('changed nothing (an empty patch)'),
    ]);
    expect(h.provider.control.revisionRecords()).toEqual([]);
    // The item's history says so, for whoever refines it and the next run.
    expect(h.engine.getState().taskContext['1']).toEqual([
      expect.objectContaining({
        type: 'no_changes',
        role: 'implementor',
        summary: expect.stringContaining('empty patch'),
      }),
    ]);
  });

  it('a planner out of attempts plans again when the user asks (userRequestedPlannerRun), with a fresh budget', async () => {
    const h = use(
      createEngineHarness({
        config: { scheduler: { maxAttempts: 2 } },
        script: {
          planner: [
            buildFailureRun('error', 'overloaded (1)'),
            buildFailureRun('error', 'overloaded (2)'),
            buildResultRun(buildPlannerResult()),
          ],
        },
      }),
    );
    h.provider.control.addSpec({ filePath: 'docs/specs/a.md', frontmatterStatus: 'approved' });
    await h.engine.start();
    await h.settle();
    expect(h.runs('planner').map((run) => run.status)).toEqual(['failed', 'failed']);
    expect(h.engine.getState().lastPlannedSHAs).toEqual({});

    h.engine.enqueue({ type: 'userRequestedPlannerRun' });
    await h.settle();
    expect(h.runs('planner').map((run) => run.status)).toEqual(['failed', 'failed', 'completed']);
    expect(Object.keys(h.engine.getState().lastPlannedSHAs)).toEqual(['docs/specs/a.md']);
    expect(h.engine.getState().failures.planner).toBeUndefined();

    // Everything is planned now: asking again starts nothing.
    h.engine.enqueue({ type: 'userRequestedPlannerRun' });
    await h.settle();
    expect(h.runs('planner')).toHaveLength(3);
  });

  it('a user cancel stops the run and parks the item as blocked instead of restarting it', async () => {
    const h = use(createEngineHarness({ script: { implementor: [buildHangingRun()] } }));
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    const [session] = await h.adapter.control.waitForStarted(1);
    h.engine.enqueue({ type: 'userCancelledRun', sessionID: session!.sessionID });
    await h.settle();
    expect(h.runs('implementor')).toEqual([
      expect.objectContaining({ status: 'cancelled', cancelRequestedBy: 'user' }),
    ]);
    expect(statusOf(h, '1')).toBe('blocked');
    expect(h.provider.control.workItemComments('1').at(-1)).toMatch(/cancel/i);
  });
});

describe('engine: recovery, scheduling and robustness', () => {
  it('recovers an in-progress item with no run: pending → ready → dispatched again', async () => {
    const h = use(
      createEngineHarness({ script: { implementor: [buildResultRun(buildImplementorResult())] } }),
    );
    h.provider.control.addWorkItem({ title: 'Interrupted', status: 'in-progress' });
    await h.engine.start();
    await h.settle();
    const statuses = h.events
      .filter((e) => e.type === 'workItemChanged' && e.workItemID === '1')
      .map((e) => (e.type === 'workItemChanged' ? e.newStatus : null));
    expect(statuses.slice(0, 4)).toEqual(['in-progress', 'pending', 'ready', 'in-progress']);
    expect(statusOf(h, '1')).toBe('review');
  });

  it('never runs more agents than maxConcurrentAgents and dispatches high priority first', async () => {
    let active = 0;
    let peak = 0;
    const order: string[] = [];
    const h = use(
      createEngineHarness({
        config: { scheduler: { maxConcurrentAgents: 2 } },
        script: {
          implementor: (params) => {
            order.push(params.role === 'implementor' ? params.workItemID : '?');
            return buildResultRun(buildImplementorResult(), { delayMs: 15 });
          },
        },
      }),
    );
    for (const [title, priority] of [
      ['a', 'low'],
      ['b', 'low'],
      ['c', 'low'],
      ['d', 'high'],
      ['e', 'medium'],
    ] as const) {
      h.provider.control.addWorkItem({ title, status: 'pending', labels: [`priority:${priority}`] });
    }
    h.engine.onEvent(() => {
      active = h.engine.schedulerStatus().active;
      peak = Math.max(peak, active);
    });
    await h.engine.start();
    await h.settle();
    expect(peak).toBeLessThanOrEqual(2);
    expect(h.runs('implementor')).toHaveLength(5);
    expect(order.slice(2)).toEqual(['4', '5', '3']);
  });

  it('starts no more agents than the resource gate admits, says what they wait for, and still finishes them all', async () => {
    let peak = 0;
    const asked: string[] = [];
    let engineRef: { schedulerStatus(): { active: number } } | null = null;
    const h = use(
      createEngineHarness({
        config: {
          scheduler: { maxConcurrentAgents: 5 },
          resources: {
            check: (runtime) => {
              asked.push(runtime);
              return (engineRef?.schedulerStatus().active ?? 0) >= 2
                ? { ok: false, detail: 'memory: 1.1 GiB available', retryAt: Date.now() + 50 }
                : { ok: true };
            },
          },
        },
        script: { implementor: () => buildResultRun(buildImplementorResult(), { delayMs: 15 }) },
      }),
    );
    engineRef = h.engine;
    for (const title of ['a', 'b', 'c', 'd']) h.provider.control.addWorkItem({ title, status: 'pending' });
    const waits: string[] = [];
    h.engine.onEvent((event) => {
      peak = Math.max(peak, h.engine.schedulerStatus().active);
      if (event.type === 'dispatchQueued' && event.reason === 'resources') waits.push(event.detail ?? '');
    });
    await h.engine.start();
    await h.settle();
    expect(peak).toBe(2);
    expect(h.runs('implementor')).toHaveLength(4);
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits)).toEqual(new Set(['memory: 1.1 GiB available']));
    // Asked by the runtime the run would start on.
    expect(new Set(asked).size).toBe(1);
  });

  it('never runs two implementors whose items name the same file at once; others run beside them', async () => {
    // An agent's result comes no earlier than DELAY ms after it starts (a timer never fires early), and DELAY
    // is long enough that #3, admitted with #1, is requested before #1 ends even on a loaded machine.
    const DELAY = 1_000;
    const starts = new Map<string, number>();
    const h = use(
      createEngineHarness({
        config: { scheduler: { maxConcurrentAgents: 3 } },
        script: {
          implementor: (params) => {
            if (params.role === 'implementor') starts.set(params.workItemID, performance.now());
            return buildResultRun(buildImplementorResult(), { delayMs: DELAY });
          },
        },
      }),
    );
    h.provider.control.addWorkItem({
      title: 'count words',
      status: 'pending',
      body: '## In Scope\n- `src/count.js`',
    });
    h.provider.control.addWorkItem({
      title: 'count lines',
      status: 'pending',
      body: 'Also edits src/count.js.',
    });
    h.provider.control.addWorkItem({ title: 'logo', status: 'pending', body: 'Replace assets/logo.svg.' });
    const conflicts: string[] = [];
    // The engine's own order of events.
    const order: string[] = [];
    h.engine.onEvent((event) => {
      if (event.type === 'dispatchQueued' && event.reason === 'conflict') conflicts.push(event.detail ?? '');
      if (event.type === 'implementorRequested' || event.type === 'implementorCompleted')
        order.push(
          `${event.type === 'implementorRequested' ? 'requested' : 'completed'} #${event.workItemID}`,
        );
    });
    await h.engine.start();
    await h.settle();
    expect(h.runs('implementor')).toHaveLength(3);
    // #2 started only once #1's agent could have ended; #3 ran beside #1.
    expect((starts.get('2') ?? Number.NaN) - (starts.get('1') ?? Number.NaN)).toBeGreaterThanOrEqual(
      DELAY - 1,
    );
    expect(order.indexOf('requested #3')).toBeLessThan(order.indexOf('completed #1'));
    expect(conflicts).toEqual(['touches src/count.js, as the run for #1 in progress does']);
  });

  it("holds back an item whose words name a file another running item's words name (no paths given)", async () => {
    const h = use(
      createEngineHarness({
        config: {
          scheduler: { maxConcurrentAgents: 3 },
          listRepositoryFiles: async () => ['src/wordcount.js', 'src/logo.svg', 'README.md'],
        },
        script: { implementor: () => buildResultRun(buildImplementorResult(), { delayMs: 200 }) },
      }),
    );
    h.provider.control.addWorkItem({
      title: 'Export wordCount',
      status: 'pending',
      body: 'As the spec says.',
    });
    h.provider.control.addWorkItem({ title: 'wordCount ignores hyphens', status: 'pending', body: '' });
    h.provider.control.addWorkItem({ title: 'A new logo', status: 'pending', body: '' });
    const conflicts: string[] = [];
    h.engine.onEvent((event) => {
      if (event.type === 'dispatchQueued' && event.reason === 'conflict') conflicts.push(event.detail ?? '');
    });
    await h.engine.start();
    await h.settle();
    expect(h.runs('implementor')).toHaveLength(3);
    expect(conflicts).toEqual(['touches src/wordcount.js, as the run for #1 in progress does']);
  });

  it('keeps processing after a handler throws, and records the error', async () => {
    const h = use(
      createEngineHarness({
        config: {
          handlers: [
            {
              name: 'exploding',
              handle: (event) => {
                if (event.type === 'workItemChanged') throw new Error('kaboom');
                return [];
              },
            },
            ...(await import('../../src/engine/handlers/index.ts')).ALL_HANDLERS,
          ],
        },
        script: { implementor: [buildResultRun(buildImplementorResult())] },
      }),
    );
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.engine.start();
    await h.settle();
    expect(statusOf(h, '1')).toBe('review');
    expect(h.engine.getState().errors[0]).toEqual(
      expect.objectContaining({ source: 'handler exploding', message: expect.stringContaining('kaboom') }),
    );
  });

  it('keeps processing after a state update throws on a malformed event', async () => {
    const h = use(
      createEngineHarness({ script: { implementor: [buildResultRun(buildImplementorResult())] } }),
    );
    await h.engine.start();
    // A malformed event from outside: the cast is the point of the test.
    h.engine.enqueue({ type: 'workItemChanged', workItemID: '9', workItem: 'garbage' } as never);
    h.provider.control.addWorkItem({ title: 'Task', status: 'pending' });
    await h.settle();
    expect(statusOf(h, '1')).toBe('review');
  });

  it('stop() cancels running agents, waits for them, drains and dispatches nothing more', async () => {
    const h = use(createEngineHarness({ script: { implementor: [buildHangingRun(), buildHangingRun()] } }));
    h.provider.control.addWorkItem({ title: 'One', status: 'pending' });
    h.provider.control.addWorkItem({ title: 'Two', status: 'pending' });
    await h.engine.start();
    await h.adapter.control.waitForStarted(2);
    await h.engine.stop();
    expect(h.adapter.control.cancelledSessionIDs()).toHaveLength(2);
    expect(h.runs('implementor').map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(h.adapter.control.activeSessionIDs()).toEqual([]);
    expect(h.adapter.control.sessions()).toHaveLength(2);
    // Shutdown cancels are not user cancels: items go back in line (dispatchable after a restart) rather
    // than being parked, and nothing new was started while stopping.
    expect([statusOf(h, '1'), statusOf(h, '2')]).toEqual(['ready', 'ready']);
    expect(h.events.filter((e) => e.type === 'dispatchDropped')).toHaveLength(2);
  });
});
