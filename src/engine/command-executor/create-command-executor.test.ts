import { describe, expect, it } from 'vitest';
import type { AgentRun, EngineCommand, EngineEvent } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import { PATCH_CONFLICT_MARKER } from '../../providers/in-memory/check-patch-applies.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../../providers/in-memory/create-in-memory-provider.ts';
import { DEFAULT_SCHEDULER_CONFIG, type Policy } from '../engine-config.ts';
import type { RuntimeAdapter } from '../runtime-contract/runtime-contract.ts';
import { type AdmittedRun, createScheduler } from '../scheduler/create-scheduler.ts';
import { buildInitialEngineState, type EngineState } from '../state-store/engine-state.ts';
import { createManualClock } from '../test-support/create-manual-clock.ts';
import { createCommandExecutor } from './create-command-executor.ts';
import { createRunRegistry } from './run-registry.ts';

const PATCH =
  'diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+hello\n';

function run(fields: Partial<AgentRun> & Pick<AgentRun, 'role' | 'sessionID'>): AgentRun {
  const base = {
    status: 'running' as const,
    logFilePath: null,
    error: null,
    requestedAt: 0,
    endedAt: null,
    usage: null,
    cancelRequestedBy: null,
  };
  if (fields.role === 'planner') return { ...base, specPaths: ['a.md'], specSHAs: {}, ...fields } as AgentRun;
  if (fields.role === 'implementor')
    return { ...base, workItemID: '1', branchName: 'flotilla/1', ...fields } as AgentRun;
  return { ...base, workItemID: '1', revisionID: '9', ...fields } as AgentRun;
}

async function setup(
  options: { policy?: Policy; maxConcurrentAgents?: number; providerCanMerge?: boolean } = {},
) {
  const provider: InMemoryProvider = createInMemoryProvider({ now: () => 1_700_000_000_000 });
  const clock = createManualClock();
  const started: AdmittedRun[] = [];
  const cancelled: string[] = [];
  const adapter: RuntimeAdapter = {
    startAgent: () => Promise.reject(new Error('not used')),
    cancelAgent: (sessionID) => cancelled.push(sessionID),
  };
  const registry = createRunRegistry();
  let counter = 0;
  let polls = 0;
  let state = buildInitialEngineState();
  const scheduler = createScheduler({
    config: { ...DEFAULT_SCHEDULER_CONFIG, maxConcurrentAgents: options.maxConcurrentAgents ?? 3 },
    clock,
    logger: silentLogger,
    getState: () => state,
    generateSessionID: () => `session-${++counter}`,
    emit: () => {},
    startRun: (admitted) => started.push(admitted),
    revalidate: (command) => ({ ok: true, command }),
  });
  const executor = createCommandExecutor({
    workItemWriter: provider.workItemWriter,
    revisionWriter:
      options.providerCanMerge === false
        ? { ...provider.revisionWriter, mergeRevision: undefined }
        : provider.revisionWriter,
    scheduler,
    registry,
    policy: options.policy ?? (() => ({ allowed: true })),
    clock,
    logger: silentLogger,
    requestPoll: () => {
      polls += 1;
    },
  });
  /** Copies the provider's world into a snapshot, as the pollers would. */
  async function snapshot(extra: Partial<EngineState> = {}): Promise<EngineState> {
    const items = await provider.workItemReader.listWorkItems();
    const revisions = await provider.revisionReader.listRevisions();
    state = buildInitialEngineState({
      workItems: Object.fromEntries(items.map((item) => [item.id, item])),
      revisions: Object.fromEntries(revisions.map((revision) => [revision.id, revision])),
      ...extra,
    });
    return state;
  }
  return {
    provider,
    executor,
    snapshot,
    started,
    cancelled,
    registry,
    adapter,
    clock,
    polls: () => polls,
  };
}

const types = (events: EngineEvent[]) => events.map((event) => event.type);

describe('command executor: guards, policy, failures', () => {
  it('rejects a transition the table does not allow for its cause, and writes nothing', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    const command: EngineCommand = {
      type: 'transitionWorkItemStatus',
      workItemID: '1',
      newStatus: 'approved',
      cause: 'readiness',
    };
    const events = await executor.execute(command, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: '#1 cannot move pending → approved (readiness)',
      }),
    ]);
    expect(provider.control.calls('transitionStatus')).toEqual([]);
  });

  it('rejects commands on unknown work items', async () => {
    const { executor, snapshot } = await setup();
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '42', newStatus: 'ready', cause: 'user' },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandRejected', reason: 'work item #42 is not known' }),
    ]);
  });

  it('applies the policy after the guards and reports its reason', async () => {
    const { provider, executor, snapshot } = await setup({
      policy: (command) =>
        command.type === 'createWorkItem' ? { allowed: false, reason: 'read-only day' } : { allowed: true },
    });
    const events = await executor.execute(
      { type: 'createWorkItem', title: 'T', body: 'B', labels: [], blockedBy: [] },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandRejected', kind: 'policy', reason: 'read-only day' }),
    ]);
    expect(provider.control.workItemRecords()).toEqual([]);
  });

  it('turns a provider error into commandFailed with its message', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    provider.control.failNext('transitionStatus', { error: new Error('tracker is down') });
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '1', newStatus: 'ready', cause: 'readiness' },
      await snapshot(),
    );
    expect(events).toEqual([expect.objectContaining({ type: 'commandFailed', error: 'tracker is down' })]);
  });
});

describe('command executor: mergeRevision', () => {
  /** Item "1" in `status` with its open revision "2". */
  async function withRevision(status: 'approved' | 'review', options: { providerCanMerge?: boolean } = {}) {
    const context = await setup(options);
    context.provider.control.addWorkItem({ title: 'A', status });
    context.provider.control.addRevision({ branchName: 'flotilla/1', workItemID: '1', patch: PATCH });
    return context;
  }
  const merge: EngineCommand = { type: 'mergeRevision', workItemID: '1', revisionID: '2' };

  it('merges, then reports the item closed and the revision gone, and asks for a poll', async () => {
    const { provider, executor, snapshot, polls } = await withRevision('approved');
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: '1',
        oldStatus: 'approved',
        newStatus: 'closed',
        workItem: expect.objectContaining({ status: 'closed' }),
      }),
      {
        type: 'revisionChanged',
        revisionID: '2',
        workItemID: '1',
        revision: null,
        oldPipelineStatus: 'pending',
        newPipelineStatus: null,
      },
    ]);
    expect(provider.control.revisionRecord('2').state).toBe('merged');
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('closed');
    expect(polls()).toBe(1);
  });

  it('rejects (invalid) an item that is not approved, and merges nothing', async () => {
    const { provider, executor, snapshot, polls } = await withRevision('review');
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: '#1 is review, not approved',
      }),
    ]);
    expect(provider.control.calls('mergeRevision')).toEqual([]);
    expect(polls()).toBe(0);
  });

  it('rejects (invalid) a revision that is no longer open', async () => {
    const { provider, executor, snapshot } = await withRevision('approved');
    provider.control.closeRevision('2');
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: 'revision 2 is not the open revision of #1',
      }),
    ]);
    expect(provider.control.calls('mergeRevision')).toEqual([]);
  });

  it('rejects (invalid) when the provider cannot merge, saying where to merge', async () => {
    const { provider, executor, snapshot } = await withRevision('approved', { providerCanMerge: false });
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: 'this provider cannot merge; merge the revision in the tracker',
      }),
    ]);
    expect(provider.control.revisionRecord('2').state).toBe('open');
  });

  it('turns a failed merge into commandFailed with its message and reports nothing else', async () => {
    const { provider, executor, snapshot, polls } = await withRevision('approved');
    provider.control.failNext('mergeRevision', { error: 'main is checked out with uncommitted changes' });
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandFailed',
        command: merge,
        error: 'main is checked out with uncommitted changes',
      }),
    ]);
    expect(provider.control.revisionRecord('2').state).toBe('open');
    expect(polls()).toBe(0);
  });
});

describe('command executor: translation of simple commands', () => {
  it('transitions a work item and reports old and new status', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '1', newStatus: 'ready', cause: 'readiness' },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: '1',
        oldStatus: 'pending',
        newStatus: 'ready',
      }),
    ]);
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('ready');
  });

  it('does nothing for a transition to the status the item already has', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'A', status: 'ready' });
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '1', newStatus: 'ready', cause: 'readiness' },
      await snapshot(),
    );
    expect(events).toEqual([]);
    expect(provider.control.calls('transitionStatus')).toEqual([]);
  });

  it('creates a work item and reports it as new', async () => {
    const { provider, executor, snapshot } = await setup();
    const events = await executor.execute(
      { type: 'createWorkItem', title: 'New', body: 'Body', labels: ['priority:high'], blockedBy: [] },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        oldStatus: null,
        newStatus: 'pending',
        workItemID: '1',
      }),
    ]);
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('Body');
  });

  it('updates and comments without events', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'A', body: 'old' });
    const state = await snapshot();
    expect(
      await executor.execute({ type: 'updateWorkItem', workItemID: '1', body: 'new', labels: null }, state),
    ).toEqual([]);
    expect(await executor.execute({ type: 'commentOnWorkItem', workItemID: '1', body: 'hi' }, state)).toEqual(
      [],
    );
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('new');
    expect(provider.control.workItemComments('1')).toEqual(['hi']);
  });

  it('creates a revision from a patch, and updates, comments and reviews it', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'A', status: 'in-progress' });
    const created = await executor.execute(
      {
        type: 'createRevisionFromPatch',
        workItemID: '1',
        patch: PATCH,
        branchName: 'flotilla/1',
        body: 'Closes #1',
      },
      await snapshot(),
    );
    expect(created).toEqual([
      expect.objectContaining({ type: 'revisionChanged', revisionID: '2', oldPipelineStatus: null }),
    ]);
    const state = await snapshot();
    expect(
      await executor.execute({ type: 'updateRevision', revisionID: '2', body: 'new body' }, state),
    ).toEqual([]);
    expect(
      await executor.execute({ type: 'commentOnRevision', revisionID: '2', body: 'note' }, state),
    ).toEqual([]);
    expect(provider.control.revisionComments('2')).toEqual(['note']);
    const review = { verdict: 'approve' as const, summary: 'fine', comments: [] };
    const posted = await executor.execute({ type: 'postRevisionReview', revisionID: '2', review }, state);
    expect(posted).toEqual([
      expect.objectContaining({
        type: 'revisionChanged',
        revision: expect.objectContaining({ reviewID: expect.any(String) }),
      }),
    ]);
    const failed = await executor.execute({ type: 'updateRevisionReview', revisionID: '2', review }, state);
    expect(failed).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: 'revision 2 has no review to update' }),
    ]);
    const updated = await executor.execute(
      { type: 'updateRevisionReview', revisionID: '2', review },
      await snapshot(),
    );
    expect(types(updated)).toEqual(['revisionChanged']);
  });
});

describe('command executor: run requests and cancels', () => {
  it('starts exactly one planner for a burst of requests in one snapshot', async () => {
    const { executor, snapshot, started } = await setup();
    const state = await snapshot();
    const request = (path: string): EngineCommand => ({
      type: 'requestPlannerRun',
      specPaths: [path],
      specSHAs: { [path]: 'x' },
    });
    const results = [];
    for (const path of ['a.md', 'b.md', 'c.md']) results.push(await executor.execute(request(path), state));
    expect(started).toHaveLength(1);
    expect(results[1]).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'duplicate',
        reason: 'planner already running',
      }),
    ]);
    expect(results[2]).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
  });

  it('rejects a planner request while a planner run is in the store', async () => {
    const { executor, snapshot, started } = await setup();
    const state = await snapshot({ agentRuns: { p: run({ role: 'planner', sessionID: 'p' }) } });
    const events = await executor.execute(
      { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: {} },
      state,
    );
    expect(events).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
    expect(started).toEqual([]);
  });

  it('guards implementor requests: refinement items, items not ready, items with a run of any role', async () => {
    const { provider, executor, snapshot, started } = await setup();
    provider.control.addWorkItem({ title: 'Question', status: 'ready', labels: ['task:refinement'] });
    provider.control.addWorkItem({ title: 'Pending', status: 'pending' });
    provider.control.addWorkItem({ title: 'Reviewed', status: 'ready' });
    provider.control.addWorkItem({ title: 'Free', status: 'ready' });
    const state = await snapshot({
      agentRuns: { r: run({ role: 'reviewer', sessionID: 'r', workItemID: '3' }) },
    });
    const request = (workItemID: string) =>
      executor.execute({ type: 'requestImplementorRun', workItemID }, state);
    expect(await request('1')).toEqual([
      expect.objectContaining({ kind: 'invalid', reason: expect.stringContaining('refinement') }),
    ]);
    expect(await request('2')).toEqual([
      expect.objectContaining({ kind: 'invalid', reason: '#2 is pending, not ready' }),
    ]);
    expect(await request('3')).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
    expect(await request('4')).toEqual([]);
    expect(await request('4')).toEqual([
      expect.objectContaining({ kind: 'duplicate', reason: 'agent already running for work item' }),
    ]);
    expect(started.map((s) => s.command)).toEqual([{ type: 'requestImplementorRun', workItemID: '4' }]);
  });

  it('guards reviewer requests: the item must be in review and the revision known', async () => {
    const { provider, executor, snapshot, started } = await setup();
    provider.control.addWorkItem({ title: 'A', status: 'review' });
    provider.control.addWorkItem({ title: 'B', status: 'ready' });
    const state = await snapshot();
    expect(
      await executor.execute({ type: 'requestReviewerRun', workItemID: '1', revisionID: '77' }, state),
    ).toEqual([expect.objectContaining({ kind: 'invalid', reason: 'revision 77 is not known' })]);
    expect(
      await executor.execute({ type: 'requestReviewerRun', workItemID: '2', revisionID: '77' }, state),
    ).toEqual([expect.objectContaining({ kind: 'invalid', reason: '#2 is ready, not in review' })]);
    expect(started).toEqual([]);
  });

  it('queues requests beyond the concurrency cap', async () => {
    const { provider, executor, snapshot, started } = await setup({ maxConcurrentAgents: 1 });
    provider.control.addWorkItem({ title: 'A', status: 'ready' });
    provider.control.addWorkItem({ title: 'B', status: 'ready' });
    const state = await snapshot();
    await executor.execute({ type: 'requestImplementorRun', workItemID: '1' }, state);
    const queued = await executor.execute({ type: 'requestImplementorRun', workItemID: '2' }, state);
    expect(queued).toEqual([expect.objectContaining({ type: 'dispatchQueued', reason: 'capacity' })]);
    expect(started).toHaveLength(1);
  });

  it('cancels the active run of the right role, reaching the adapter once the session exists', async () => {
    const { executor, snapshot, registry, adapter, cancelled } = await setup();
    registry.register('impl-1', adapter);
    const state = await snapshot({
      agentRuns: {
        'impl-1': run({ role: 'implementor', sessionID: 'impl-1', workItemID: '5' }),
        done: run({ role: 'reviewer', sessionID: 'done', workItemID: '5', status: 'completed' }),
      },
    });
    expect(await executor.execute({ type: 'cancelReviewerRun', workItemID: '5' }, state)).toEqual([]);
    expect(registry.cancelReasonOf('done')).toBeNull();
    await executor.execute({ type: 'cancelImplementorRun', workItemID: '5' }, state);
    expect(registry.cancelReasonOf('impl-1')).toBe('cancelled');
    expect(cancelled).toEqual([]);
    registry.markStarted('impl-1', {
      push() {},
      end() {},
      subscribe: () => [][Symbol.iterator]() as never,
      ended: false,
    });
    expect(cancelled).toEqual(['impl-1']);
  });
});

describe('command executor: applyPlannerResult', () => {
  const create = (tempID: string, blockedBy: string[] = [], labels: string[] = []) => ({
    tempID,
    title: `Title ${tempID}`,
    body: `Body ${tempID}`,
    labels,
    blockedBy,
  });

  it('creates blockers first, resolves tempIDs (also to later creates), then closes and updates', async () => {
    const { provider, executor, snapshot } = await setup();
    provider.control.addWorkItem({ title: 'Existing', status: 'pending' });
    provider.control.addWorkItem({ title: 'Stale', status: 'pending' });
    const events = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: {
          role: 'planner',
          create: [create('second', ['first', '1']), create('first', [], ['priority:high'])],
          close: ['2'],
          update: [{ workItemID: '1', body: 'Rewritten', labels: null }],
        },
      },
      await snapshot(),
    );
    expect(types(events)).toEqual(['workItemChanged', 'workItemChanged', 'workItemChanged']);
    const [first, second, closed] = events as Extract<EngineEvent, { type: 'workItemChanged' }>[];
    expect(first?.workItem?.title).toBe('Title first');
    expect(second?.workItem?.blockedBy).toEqual([first?.workItemID, '1']);
    expect(closed).toEqual(
      expect.objectContaining({ workItemID: '2', newStatus: 'closed', oldStatus: 'pending' }),
    );
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('Rewritten');
  });

  it.each([
    ['an unknown blocker', { create: [create('a', ['99'])], close: [], update: [] }, "blocked by '99'"],
    [
      'a dependency cycle',
      { create: [create('a', ['b']), create('b', ['a'])], close: [], update: [] },
      'cycle',
    ],
    [
      'a close of an unknown item',
      { create: [create('a')], close: ['99'], update: [] },
      'work item #99 is not known',
    ],
    [
      'an update of an unknown item',
      { create: [create('a')], close: [], update: [{ workItemID: '98', body: null, labels: null }] },
      'work item #98 is not known',
    ],
  ])('writes nothing for %s and says why', async (_name, result, reason) => {
    const { provider, executor, snapshot } = await setup();
    const events = await executor.execute(
      { type: 'applyPlannerResult', result: { role: 'planner', ...result } },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: expect.stringContaining(reason) }),
    ]);
    expect(events[0]).toEqual(expect.objectContaining({ error: expect.stringContaining('nothing written') }));
    expect(provider.control.calls('createWorkItem')).toEqual([]);
  });

  it('keeps what was already written when a later write fails', async () => {
    const { provider, executor, snapshot } = await setup();
    const state = await snapshot();
    // The first create succeeds, the second fails.
    let calls = 0;
    const original = provider.workItemWriter.createWorkItem;
    provider.workItemWriter.createWorkItem = async (input) => {
      calls += 1;
      if (calls === 2) throw new Error('rate limited');
      return original(input);
    };
    const events = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: { role: 'planner', create: [create('a'), create('b')], close: [], update: [] },
      },
      state,
    );
    expect(types(events)).toEqual(['workItemChanged', 'commandFailed']);
    expect(events[1]).toEqual(expect.objectContaining({ error: 'rate limited' }));
  });
});

describe('command executor: applyImplementorResult and applyReviewerResult', () => {
  async function inProgressItem() {
    const context = await setup();
    context.provider.control.addWorkItem({ title: 'Feature', status: 'in-progress' });
    return context;
  }

  const implementor = (outcome: 'completed' | 'blocked' | 'validation-failure', patch: string | null) => ({
    type: 'applyImplementorResult' as const,
    workItemID: '1',
    branchName: 'flotilla/1',
    result: { role: 'implementor' as const, outcome, summary: `Summary of ${outcome}`, patch },
  });

  it('completed: creates the revision, keeps the summary, moves the item to review with the link', async () => {
    const { provider, executor, snapshot } = await inProgressItem();
    const events = await executor.execute(implementor('completed', PATCH), await snapshot());
    expect(types(events)).toEqual(['revisionChanged', 'workItemChanged']);
    expect(events[1]).toEqual(
      expect.objectContaining({
        newStatus: 'review',
        workItem: expect.objectContaining({ linkedRevision: '2' }),
      }),
    );
    const revision = await provider.revisionReader.getRevision('2');
    expect(revision?.body).toBe('Closes #1\n\nSummary of completed');
    expect(provider.control.workItemComments('1')).toEqual([
      'Implementor completed revision 2:\n\nSummary of completed',
    ]);
  });

  it('completed without a patch parks the item as blocked and explains why', async () => {
    const { provider, executor, snapshot } = await inProgressItem();
    const events = await executor.execute(implementor('completed', ''), await snapshot());
    expect(types(events)).toEqual(['commandFailed', 'workItemChanged']);
    expect(events[0]).toEqual(
      expect.objectContaining({ error: expect.stringContaining('carries no patch') }),
    );
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('blocked');
  });

  it('a patch that does not apply parks the item as blocked and explains why', async () => {
    const { provider, executor, snapshot } = await inProgressItem();
    const events = await executor.execute(
      implementor('completed', `${PATCH}${PATCH_CONFLICT_MARKER}`),
      await snapshot(),
    );
    expect(types(events)).toEqual(['commandFailed', 'workItemChanged']);
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('blocked');
    expect(provider.control.workItemComments('1')[0]).toContain('could not create a revision');
    expect(provider.control.revisionRecords()).toEqual([]);
  });

  it.each([
    ['blocked', 'blocked', 'Implementor reported a blocker'],
    ['validation-failure', 'needs-refinement', 'Implementor could not validate its change'],
  ] as const)('%s: writes the summary and moves the item to %s', async (outcome, status, heading) => {
    const { provider, executor, snapshot } = await inProgressItem();
    const events = await executor.execute(implementor(outcome, null), await snapshot());
    expect(events).toEqual([expect.objectContaining({ type: 'workItemChanged', newStatus: status })]);
    expect(provider.control.workItemComments('1')).toEqual([`${heading}:\n\nSummary of ${outcome}`]);
  });

  it('posts the first review, replaces later ones, and moves the item by verdict', async () => {
    const { provider, executor, snapshot } = await inProgressItem();
    await executor.execute(implementor('completed', PATCH), await snapshot());
    provider.control.editWorkItem('1', { status: 'review' });
    const needsChanges = {
      type: 'applyReviewerResult' as const,
      workItemID: '1',
      revisionID: '2',
      review: {
        verdict: 'needs-changes' as const,
        summary: 'Add a test',
        comments: [{ path: 'a.txt', line: 1, body: 'why?' }],
      },
      needsChangesStatus: 'pending' as const,
    };
    const first = await executor.execute(needsChanges, await snapshot());
    expect(types(first)).toEqual(['workItemChanged', 'revisionChanged']);
    expect(first[0]).toEqual(expect.objectContaining({ newStatus: 'pending' }));
    expect(provider.control.calls('postReview')).toHaveLength(1);

    provider.control.editWorkItem('1', { status: 'review' });
    const approve = {
      ...needsChanges,
      review: { verdict: 'approve' as const, summary: 'Good', comments: [] },
    };
    const second = await executor.execute(approve, await snapshot());
    expect(second[0]).toEqual(expect.objectContaining({ newStatus: 'approved' }));
    expect(provider.control.calls('updateReview')).toHaveLength(1);
    expect(provider.control.workItemComments('1').slice(-1)[0]).toBe('Reviewer approved revision 2:\n\nGood');
  });

  it('fails clearly when the reviewed revision is unknown', async () => {
    const { executor, snapshot } = await inProgressItem();
    const events = await executor.execute(
      {
        type: 'applyReviewerResult',
        workItemID: '1',
        revisionID: '50',
        review: { verdict: 'approve', summary: '', comments: [] },
        needsChangesStatus: 'pending',
      },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: 'revision 50 is not known' }),
    ]);
  });
});
