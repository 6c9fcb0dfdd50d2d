import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import { createInMemoryProvider } from '../../../test/support/in-memory-provider/create-in-memory-provider.ts';
import { buildRevisionFeedback } from '../../../test/support/shared/builders/index.ts';
import type { EngineEvent } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
import { buildInitialEngineState, type EngineState } from '../state-store/engine-state.ts';
import { createFeedbackPoller } from './create-feedback-poller.ts';
import { createOneWorkItemPoller } from './create-one-work-item-poller.ts';
import { createRevisionPoller } from './create-revision-poller.ts';
import { createSpecPoller } from './create-spec-poller.ts';
import { createWorkItemPoller } from './create-work-item-poller.ts';
import type { Poller } from './poller.ts';

const PATCH =
  'diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n';

function harness() {
  const provider = createInMemoryProvider({ now: () => 1_700_000_000_000 });
  let state: EngineState = buildInitialEngineState();
  const emitted: EngineEvent[] = [];
  const deps = { logger: silentLogger, clock: createManualClock() };
  const run = (poller: Poller) => ({
    poll: async () => {
      emitted.push(...(await poller.poll(() => state)));
    },
  });
  return {
    provider,
    emitted,
    workItems: run(createWorkItemPoller({ ...deps, reader: provider.workItemReader })),
    revisions: run(createRevisionPoller({ ...deps, reader: provider.revisionReader })),
    feedback: run(createFeedbackPoller({ ...deps, reader: provider.revisionReader })),
    specs: run(createSpecPoller({ ...deps, reader: provider.specReader })),
    /** Applies what was emitted, as the loop would, and clears the list. */
    apply() {
      for (const event of emitted.splice(0)) state = applyStateUpdate(state, event).state;
    },
    state: () => state,
  };
}

describe('work item poller', () => {
  it('reports new and changed items, and nothing once the store matches', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A', status: 'pending' });
    await h.workItems.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: '1',
        oldStatus: null,
        newStatus: 'pending',
      }),
    ]);
    h.apply();
    await h.workItems.poll();
    expect(h.emitted).toEqual([]);
    h.provider.control.editWorkItem('1', { status: 'ready' });
    await h.workItems.poll();
    expect(h.emitted).toEqual([expect.objectContaining({ oldStatus: 'pending', newStatus: 'ready' })]);
  });

  it('reports a return to an earlier value', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A', status: 'pending' });
    await h.workItems.poll();
    h.apply();
    h.provider.control.editWorkItem('1', { status: 'blocked' });
    await h.workItems.poll();
    h.apply();
    h.provider.control.editWorkItem('1', { status: 'pending' });
    await h.workItems.poll();
    expect(h.emitted).toEqual([expect.objectContaining({ oldStatus: 'blocked', newStatus: 'pending' })]);
  });

  it('keeps closed items as closed and removes deleted ones', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A' });
    h.provider.control.addWorkItem({ title: 'B' });
    await h.workItems.poll();
    h.apply();
    h.provider.control.closeWorkItem('1');
    h.provider.control.deleteWorkItem('2');
    await h.workItems.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({
        workItemID: '1',
        newStatus: 'closed',
        workItem: expect.objectContaining({ status: 'closed' }),
      }),
      expect.objectContaining({ workItemID: '2', newStatus: null, workItem: null }),
    ]);
    h.apply();
    expect(h.state().workItems['1']?.status).toBe('closed');
    expect(h.state().workItems['2']).toBeUndefined();
    await h.workItems.poll();
    expect(h.emitted).toEqual([]);
  });

  it('fetches blockers it has never seen, so a blocker closed before start counts as done', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'Old blocker', status: 'closed' });
    h.provider.control.addWorkItem({ title: 'Dependent', blockedBy: ['1'] });
    await h.workItems.poll();
    expect(h.emitted.map((e) => (e.type === 'workItemChanged' ? [e.workItemID, e.newStatus] : null))).toEqual(
      [
        ['2', 'pending'],
        ['1', 'closed'],
      ],
    );
  });

  it('reports a failing provider once per streak and skips the cycle', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A' });
    h.provider.control.failNext('listWorkItems', { times: 2, error: new Error('tracker unreachable') });
    await h.workItems.poll();
    await h.workItems.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({
        type: 'errorRecorded',
        source: 'work item poller',
        message: 'tracker unreachable',
      }),
    ]);
    await h.workItems.poll();
    expect(h.emitted.slice(1)).toEqual([
      expect.objectContaining({ type: 'workItemChanged', workItemID: '1' }),
    ]);
  });

  it('does not report a blocker that does not exist at all', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'Dependent', blockedBy: ['404'] });
    await h.workItems.poll();
    expect(h.emitted).toEqual([expect.objectContaining({ workItemID: '1' })]);
  });
});

describe('revision poller', () => {
  it('reports new revisions and pipeline changes, keeps the last pipeline when CI is unknown, and reports removal', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A', status: 'in-progress' });
    await h.provider.revisionWriter.createFromPatch({
      workItemID: '1',
      patch: PATCH,
      branchName: 'flotilla/1',
      title: 'A',
      body: 'Closes #1',
    });
    await h.revisions.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({
        type: 'revisionChanged',
        revisionID: '2',
        oldPipelineStatus: null,
        newPipelineStatus: 'pending',
      }),
    ]);
    h.apply();
    h.provider.control.setPipeline('2', 'success');
    await h.revisions.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({ oldPipelineStatus: 'pending', newPipelineStatus: 'success' }),
    ]);
    h.apply();
    h.provider.control.setPipeline('2', null);
    await h.revisions.poll();
    expect(h.emitted).toEqual([]);
    expect(h.state().revisions['2']?.pipeline?.status).toBe('success');
    h.provider.control.closeRevision('2');
    await h.revisions.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({ revisionID: '2', revision: null, newPipelineStatus: null }),
    ]);
  });
});

describe('one work item poller (a webhook named the item)', () => {
  it('reads just that item: its change, not the others, never the list', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A', status: 'pending' });
    h.provider.control.addWorkItem({ title: 'B', status: 'pending' });
    await h.workItems.poll();
    h.apply();
    h.provider.control.editWorkItem('1', { status: 'ready' });
    h.provider.control.editWorkItem('2', { status: 'blocked' });
    let listed = 0;
    const reader = {
      ...h.provider.workItemReader,
      listWorkItems: async () => {
        listed += 1;
        return h.provider.workItemReader.listWorkItems();
      },
    };
    const one = createOneWorkItemPoller({ logger: silentLogger, clock: createManualClock(), reader }, '1');
    const events = await one.poll(h.state);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: '1',
        oldStatus: 'pending',
        newStatus: 'ready',
      }),
    ]);
    expect(listed).toBe(0);
    h.provider.control.editWorkItem('1', { status: 'closed' });
    for (const event of events) h.emitted.push(event);
    h.apply();
    expect(await one.poll(h.state)).toEqual([
      expect.objectContaining({ oldStatus: 'ready', newStatus: 'closed' }),
    ]);
  });

  it('fetches a blocker the store has never seen, as the list poll does', async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A', status: 'pending' });
    await h.workItems.poll();
    h.apply();
    h.provider.control.addWorkItem({ title: 'B', status: 'pending' });
    h.provider.control.editWorkItem('1', { blockedBy: ['2'] });
    const one = createOneWorkItemPoller(
      { logger: silentLogger, clock: createManualClock(), reader: h.provider.workItemReader },
      '1',
    );
    expect(
      (await one.poll(h.state)).map((event) => event.type === 'workItemChanged' && event.workItemID),
    ).toEqual(['1', '2']);
  });
});

describe('feedback poller', () => {
  it("reads the feedback of known items' linked revisions only, reports each once, and never what was answered", async () => {
    const h = harness();
    h.provider.control.addWorkItem({ title: 'A', status: 'in-progress' });
    await h.provider.revisionWriter.createFromPatch({
      workItemID: '1',
      patch: PATCH,
      branchName: 'flotilla/1',
      title: 'A',
      body: 'Closes #1',
    });
    const changes = buildRevisionFeedback({ id: 'review-7' });
    h.provider.control.addFeedback('2', changes);
    // Nothing known yet: nothing read.
    await h.feedback.poll();
    expect(h.emitted).toEqual([]);
    expect(h.provider.control.calls('listFeedback')).toEqual([]);
    await h.workItems.poll();
    await h.revisions.poll();
    h.apply();
    await h.feedback.poll();
    expect(h.emitted).toEqual([
      {
        type: 'revisionFeedbackReceived',
        workItemID: '1',
        revisionID: '2',
        feedback: [changes],
        at: expect.any(Number),
      },
    ]);
    h.apply();
    // Seen: not reported again; a new comment is.
    await h.feedback.poll();
    expect(h.emitted).toEqual([]);
    const mention = buildRevisionFeedback({
      id: 'comment-8',
      kind: 'comment',
      state: null,
      body: '@flotilla and docs',
    });
    h.provider.control.addFeedback('2', mention);
    await h.feedback.poll();
    expect(
      h.emitted.map((event) => (event.type === 'revisionFeedbackReceived' ? event.feedback : [])),
    ).toEqual([[mention]]);
    h.apply();
    // Answered on the tracker: gone from the provider's reading even for a store that forgot it (a restart).
    await h.provider.revisionWriter.replyToFeedback?.('2', [changes, mention], 'done');
    expect(await h.provider.revisionReader.listFeedback?.('2')).toEqual([]);
    // A closed item's revision is not read at all.
    h.provider.control.closeWorkItem('1');
    await h.workItems.poll();
    h.apply();
    h.provider.control.clearCalls();
    await h.feedback.poll();
    expect(h.provider.control.calls('listFeedback')).toEqual([]);
  });
});

describe('spec poller', () => {
  it('reports added, modified and removed specs with the head SHA, reading it only on change', async () => {
    const h = harness();
    h.provider.control.addSpec({ filePath: 'docs/specs/a.md', frontmatterStatus: 'approved', content: 'A' });
    await h.specs.poll();
    const head = h.provider.control.defaultBranchSHA();
    expect(h.emitted).toEqual([
      expect.objectContaining({
        type: 'specChanged',
        filePath: 'docs/specs/a.md',
        changeType: 'added',
        frontmatterStatus: 'approved',
        commitSHA: head,
      }),
    ]);
    h.apply();
    await h.specs.poll();
    expect(h.emitted).toEqual([]);
    expect(h.provider.control.calls('getDefaultBranchSHA')).toHaveLength(1);
    h.provider.control.editSpec('docs/specs/a.md', { content: 'A2' });
    await h.specs.poll();
    expect(h.emitted).toEqual([expect.objectContaining({ changeType: 'modified' })]);
    h.apply();
    h.provider.control.removeSpec('docs/specs/a.md');
    await h.specs.poll();
    expect(h.emitted).toEqual([expect.objectContaining({ changeType: 'removed' })]);
  });

  it('reports an unreadable spec once, by file name, and again only if the problem changes', async () => {
    const h = harness();
    h.provider.control.setSpecProblem('docs/specs/bad.md', 'frontmatter: expected a YAML mapping');
    await h.specs.poll();
    await h.specs.poll();
    expect(h.emitted).toEqual([
      expect.objectContaining({
        type: 'errorRecorded',
        message: 'docs/specs/bad.md: frontmatter: expected a YAML mapping',
      }),
    ]);
  });

  it('sees a change again next cycle when reading the head SHA failed', async () => {
    const h = harness();
    h.provider.control.addSpec({ filePath: 'docs/specs/a.md', frontmatterStatus: 'approved', content: 'A' });
    h.provider.control.failNext('getDefaultBranchSHA');
    await h.specs.poll();
    expect(h.emitted).toEqual([expect.objectContaining({ type: 'errorRecorded', source: 'spec poller' })]);
    await h.specs.poll();
    expect(h.emitted.slice(1)).toEqual([
      expect.objectContaining({ type: 'specChanged', changeType: 'added' }),
    ]);
  });
});
