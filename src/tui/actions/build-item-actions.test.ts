import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildReviewerRun,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { findRow } from '../../../test/support/tui/find-row.ts';
import type { AgentRun, WorkItem } from '../../domain/index.ts';
import type { EngineState, QueuedDispatch } from '../../engine/state-store/index.ts';
import { buildItemActions, type ItemAction } from './build-item-actions.ts';

function actionsFor(
  item: Partial<WorkItem>,
  runs: AgentRun[] = [],
  extra: Partial<EngineState> = {},
): { actions: ItemAction[]; state: EngineState } {
  const workItem = buildWorkItem({ id: '7', ...item });
  const state: EngineState = {
    ...buildTestState({
      workItems: [workItem, buildWorkItem({ id: '1', status: 'in-progress' })],
      revisions: [buildRevision({ id: 'r7', workItemID: '7', headRef: 'flotilla/7' })],
      agentRuns: runs,
    }),
    ...extra,
  };
  return { actions: buildItemActions(findRow(state, '7'), state), state };
}
const keys = (actions: ItemAction[]) => actions.map((action) => action.key).join('');
const byKey = (actions: ItemAction[], key: string) => {
  const action = actions.find((candidate) => candidate.key === key);
  if (!action) throw new Error(`no ${key} action`);
  return action;
};
const eventOf = (action: ItemAction) => (action.effect.kind === 'event' ? action.effect.event : null);

describe('buildItemActions', () => {
  it('dispatch (ready): d asks first and requests an implementor run', () => {
    const { actions } = actionsFor({ status: 'ready' });
    expect(keys(actions)).toBe('d');
    const d = byKey(actions, 'd');
    expect(d.label).toBe('dispatch');
    expect(d.confirm).toBe('Dispatch an implementor for #7?');
    expect(eventOf(d)).toEqual({ type: 'userRequestedImplementorRun', workItemID: '7' });
  });

  it('pending with unmet blockers: the question names them; met blockers are not mentioned', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '7', status: 'pending', blockedBy: ['1', '2', '3'] }),
        buildWorkItem({ id: '1', status: 'in-progress' }),
        buildWorkItem({ id: '2', status: 'approved' }),
        buildWorkItem({ id: '3', status: 'closed' }),
      ],
    });
    const d = byKey(buildItemActions(findRow(state, '7'), state), 'd');
    expect(d.confirm).toBe('Dispatch an implementor for #7? It is still waiting for #1.');
  });

  it('blocked and needs-refinement: d dispatches and u moves to pending without asking', () => {
    for (const status of ['blocked', 'needs-refinement'] as const) {
      const { actions } = actionsFor({ status });
      expect(keys(actions)).toBe('du');
      const u = byKey(actions, 'u');
      expect(u.confirm).toBeNull();
      expect(eventOf(u)).toEqual({ type: 'userTransitionedStatus', workItemID: '7', newStatus: 'pending' });
    }
  });

  it('refinement items are never dispatched', () => {
    expect(keys(actionsFor({ status: 'ready', kind: 'refinement' }).actions)).toBe('');
    expect(keys(actionsFor({ status: 'needs-refinement', kind: 'refinement' }).actions)).toBe('u');
  });

  it('implementing: x cancels the session (asks first) and l opens the transcript', () => {
    const run = buildImplementorRun({ sessionID: 'impl-7', workItemID: '7' });
    const { actions } = actionsFor({ status: 'in-progress' }, [run]);
    expect(keys(actions)).toBe('xl');
    const x = byKey(actions, 'x');
    expect(x.confirm).toBe('Cancel the implementor on #7? The item is parked as blocked.');
    expect(eventOf(x)).toEqual({ type: 'userCancelledRun', sessionID: 'impl-7' });
    expect(byKey(actions, 'l').effect).toEqual({
      kind: 'transcript',
      sessionID: 'impl-7',
      path: '/logs/impl-7.jsonl',
    });
    expect(byKey(actions, 'l').confirm).toBeNull();
  });

  it('a run on another machine of a cluster (no file here) still offers l, by its session', () => {
    const run = buildImplementorRun({ sessionID: 'impl-7', workItemID: '7', logFilePath: null });
    const { actions } = actionsFor({ status: 'in-progress' }, [run]);
    expect(keys(actions)).toBe('xl');
    expect(byKey(actions, 'l').effect).toEqual({ kind: 'transcript', sessionID: 'impl-7', path: null });
  });

  it('a requested run (no transcript yet) offers only x; a blocked item with an active run offers no u', () => {
    const run = buildImplementorRun({ sessionID: 'impl-7', workItemID: '7', status: 'requested' });
    expect(keys(actionsFor({ status: 'ready' }, [run]).actions)).toBe('x');
    expect(keys(actionsFor({ status: 'blocked' }, [run]).actions)).toBe('x');
  });

  it('reviewing (idle, with a revision): r runs the reviewer after asking', () => {
    const { actions } = actionsFor({ status: 'review', linkedRevision: 'r7' });
    expect(keys(actions)).toBe('rv');
    const r = byKey(actions, 'r');
    expect(r.confirm).toBe('Run the reviewer on #7 now?');
    expect(eventOf(r)).toEqual({ type: 'userRequestedReviewerRun', workItemID: '7' });
  });

  it('review without a revision offers nothing; a running reviewer offers x, not r', () => {
    expect(keys(actionsFor({ status: 'review' }).actions)).toBe('');
    const run = buildReviewerRun({ sessionID: 'rev-7', workItemID: '7', revisionID: 'r7' });
    expect(keys(actionsFor({ status: 'review', linkedRevision: 'r7' }, [run]).actions)).toBe('xvl');
  });

  it('queued: nothing to dispatch again', () => {
    const queued: QueuedDispatch = {
      key: 'implementor:7',
      command: { type: 'requestImplementorRun', workItemID: '7' },
      reason: 'capacity',
      notBefore: null,
      priority: 1,
      queuedAt: 0,
    };
    expect(keys(actionsFor({ status: 'ready' }, [], { dispatchQueue: [queued] }).actions)).toBe('');
  });

  it('failed implementor: d retries (asks first), l opens the transcript', () => {
    const run = buildImplementorRun({ sessionID: 'impl-7', workItemID: '7', status: 'failed' });
    const { actions } = actionsFor({ status: 'ready' }, [run]);
    expect(keys(actions)).toBe('dl');
    const d = byKey(actions, 'd');
    expect(d.label).toBe('retry');
    expect(d.confirm).toBe('Retry the implementor on #7?');
    expect(eventOf(d)).toEqual({ type: 'userRequestedImplementorRun', workItemID: '7' });
  });

  it('failed implementor on a blocked item: d retries, u moves it to pending', () => {
    const run = buildImplementorRun({ sessionID: 'impl-7', workItemID: '7', status: 'timed-out' });
    expect(keys(actionsFor({ status: 'blocked' }, [run]).actions)).toBe('dul');
  });

  it('failed reviewer: d retries the review (asks first) and r is not offered twice', () => {
    const run = buildReviewerRun({ sessionID: 'rev-7', workItemID: '7', revisionID: 'r7', status: 'failed' });
    const { actions } = actionsFor({ status: 'review', linkedRevision: 'r7' }, [run]);
    expect(keys(actions)).toBe('dvl');
    const d = byKey(actions, 'd');
    expect(d.label).toBe('retry review');
    expect(d.confirm).toBe('Retry the reviewer on #7?');
    expect(eventOf(d)).toEqual({ type: 'userRequestedReviewerRun', workItemID: '7' });
  });

  it('approved with a revision: m merges after asking, naming the branch', () => {
    const { actions } = actionsFor({ status: 'approved', linkedRevision: 'r7' });
    expect(keys(actions)).toBe('mv');
    const m = byKey(actions, 'm');
    expect(m.confirm).toBe('Merge flotilla/7 (revision r7) into the default branch and close #7?');
    expect(eventOf(m)).toEqual({ type: 'userRequestedMerge', workItemID: '7' });
  });

  it('a revision with a local checks log: c opens it; a CI link is not a file to open', () => {
    const withLog = (url: string | null) =>
      actionsFor({ status: 'review', linkedRevision: 'r7' }, [], {
        revisions: {
          r7: buildRevision({
            id: 'r7',
            workItemID: '7',
            pipeline: { status: 'failure', url, reason: 'tests failed' },
          }),
        },
      }).actions;
    expect(byKey(withLog('/repo/.flotilla/logs/checks/c.log'), 'c')).toMatchObject({
      confirm: null,
      effect: { kind: 'file', title: 'checks log', path: '/repo/.flotilla/logs/checks/c.log' },
    });
    expect(keys(withLog('https://ci.example/runs/1'))).not.toContain('c');
    expect(keys(withLog(null))).not.toContain('c');
  });

  it('an approved item whose checks passed: c opens the passing checks log', () => {
    const log = '/repo/.flotilla/logs/checks/pass.log';
    const { actions } = actionsFor({ status: 'approved', linkedRevision: 'r7' }, [], {
      revisions: {
        r7: buildRevision({
          id: 'r7',
          workItemID: '7',
          pipeline: { status: 'success', url: log, reason: null },
        }),
      },
    });
    expect(byKey(actions, 'c')).toMatchObject({ effect: { kind: 'file', title: 'checks log', path: log } });
  });

  it('an item with a revision: v shows its diff; without one, no v', () => {
    expect(byKey(actionsFor({ status: 'review', linkedRevision: 'r7' }).actions, 'v')).toMatchObject({
      confirm: null,
      effect: { kind: 'diff', revisionID: 'r7' },
    });
    expect(keys(actionsFor({ status: 'review', linkedRevision: null }).actions)).not.toContain('v');
  });

  it('approved without a revision: nothing to merge', () => {
    expect(keys(actionsFor({ status: 'approved' }).actions)).toBe('');
  });

  it('every action that starts paid work or destroys some asks first', () => {
    const cases: ItemAction[] = [
      ...actionsFor({ status: 'ready' }).actions,
      ...actionsFor({ status: 'review', linkedRevision: 'r7' }).actions,
      ...actionsFor({ status: 'in-progress' }, [buildImplementorRun({ sessionID: 's', workItemID: '7' })])
        .actions,
      ...actionsFor({ status: 'approved', linkedRevision: 'r7' }).actions,
    ];
    for (const action of cases) {
      if ('drxm'.includes(action.key)) expect(action.confirm, action.key).not.toBeNull();
      expect(action.done === '' || action.done.includes('#7')).toBe(true);
    }
  });
});
