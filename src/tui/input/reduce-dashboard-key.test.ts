import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildRevision,
  buildSpec,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { deepFreeze } from '../../../test/support/shared/deep-freeze.ts';
import type { EngineState } from '../../engine/state-store/index.ts';
import { buildWorkItemSections } from '../view-model/build-work-item-sections.ts';
import type { DashboardEffect, DashboardInputResult } from './dashboard-effect.ts';
import {
  type DashboardInputState,
  INITIAL_DASHBOARD_INPUT_STATE,
  STATS_OVERLAY_TITLE,
} from './dashboard-input-state.ts';
import {
  type DashboardKeyContext,
  type KeyFlags,
  type KeyPress,
  reduceDashboardKey,
} from './reduce-dashboard-key.ts';

const CHECKS_LOG = '/repo/.flotilla/logs/checks/checks-4.log';

/** #4 approved (merge, diff, checks log), #3 blocked, #2 implementing (session impl-2), #1 ready: in list order. */
function buildBoard(): EngineState {
  return buildTestState({
    workItems: [
      buildWorkItem({ id: '1', title: 'Add login', status: 'ready' }),
      buildWorkItem({ id: '2', title: 'Write docs', status: 'in-progress' }),
      buildWorkItem({ id: '3', title: 'Fix flaky test', status: 'blocked' }),
      buildWorkItem({ id: '4', title: 'Ship search', status: 'approved', linkedRevision: 'r4' }),
    ],
    revisions: [
      buildRevision({
        id: 'r4',
        workItemID: '4',
        headRef: 'flotilla/4',
        headSHA: '0123456789abcdef0123',
        pipeline: { status: 'success', url: CHECKS_LOG, reason: null },
      }),
    ],
    agentRuns: [buildImplementorRun({ sessionID: 'impl-2', workItemID: '2' })],
  });
}

function contextFor(
  engineState: EngineState = buildBoard(),
  overrides: Partial<DashboardKeyContext> = {},
): DashboardKeyContext {
  const rows = buildWorkItemSections(engineState).flatMap((section) => section.rows);
  return deepFreeze({
    engineState,
    rows,
    shownIndex: 0,
    bodyHeight: 20,
    pane: null,
    activeAgents: 0,
    ...overrides,
  });
}

const NO_FLAGS: KeyFlags = {
  upArrow: false,
  downArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  tab: false,
  backspace: false,
  delete: false,
  ctrl: false,
  meta: false,
};
const typed = (input: string): KeyPress => ({ input, key: NO_FLAGS });
const flagged = (flag: keyof KeyFlags, input = ''): KeyPress => ({
  input,
  key: { ...NO_FLAGS, [flag]: true },
});
const CTRL_C = flagged('ctrl', 'c');
const ESC = flagged('escape');
const ENTER = flagged('return', '\r');
const TAB = flagged('tab', '\t');
const UP = flagged('upArrow');
const DOWN = flagged('downArrow');

const RUNNING: DashboardInputState = { ...INITIAL_DASHBOARD_INPUT_STATE, phase: 'running', selectedID: '4' };

/** Presses keys in order on a frozen state (a mutation throws), collecting every effect. */
function press(
  state: DashboardInputState,
  context: DashboardKeyContext,
  ...keys: (KeyPress | string)[]
): DashboardInputResult {
  let current = state;
  const effects: DashboardEffect[] = [];
  for (const key of keys) {
    const next = reduceDashboardKey(deepFreeze(current), typeof key === 'string' ? typed(key) : key, context);
    current = next.state;
    effects.push(...next.effects);
  }
  return { state: current, effects };
}

const said = (text: string, tone: 'info' | 'error' = 'info'): DashboardEffect => ({
  kind: 'say',
  text,
  tone,
});

describe('reduceDashboardKey', () => {
  it('the board fixture lists #4, #3, #2, #1', () => {
    expect(contextFor().rows.map((row) => row.item.id)).toEqual(['4', '3', '2', '1']);
  });

  describe('Ctrl-C', () => {
    it('quits on the first press and forces the exit on the second', () => {
      const first = press(RUNNING, contextFor(), CTRL_C);
      expect(first.state.phase).toBe('stopping');
      expect(first.effects).toEqual([{ kind: 'stop' }]);
      const second = press(first.state, contextFor(), CTRL_C);
      expect(second.effects).toEqual([{ kind: 'force-exit' }]);
    });

    it('forces the exit at once while already stopping (after q), and quits while starting', () => {
      const quitting = press(RUNNING, contextFor(), 'q');
      expect(quitting.state.phase).toBe('stopping');
      expect(press(quitting.state, contextFor(), CTRL_C).effects).toEqual([{ kind: 'force-exit' }]);
      const starting = press(INITIAL_DASHBOARD_INPUT_STATE, contextFor(), CTRL_C);
      expect(starting.state.phase).toBe('stopping');
      expect(starting.effects).toEqual([{ kind: 'stop' }]);
    });

    it('counts presses: a second one forces the exit even if the start failed since the first', () => {
      const failedAfterQuit: DashboardInputState = { ...RUNNING, phase: 'start-failed', interrupts: 1 };
      expect(press(failedAfterQuit, contextFor(), CTRL_C).effects).toEqual([{ kind: 'force-exit' }]);
    });

    it('closes an open question on the way out', () => {
      const asked = press(RUNNING, contextFor(undefined, { activeAgents: 1 }), 'q');
      expect(asked.state.prompt).not.toBeNull();
      const result = press(asked.state, contextFor(), CTRL_C);
      expect(result.state.prompt).toBeNull();
      expect(result.effects).toEqual([{ kind: 'stop' }]);
    });
  });

  it('while stopping, every other key does nothing', () => {
    const stopping: DashboardInputState = { ...RUNNING, phase: 'stopping' };
    for (const key of ['q', 'j', '?', '/', 'd', 'y', 'p', 'f']) {
      const result = press(stopping, contextFor(), key);
      expect(result.state).toBe(stopping);
      expect(result.effects).toEqual([]);
    }
  });

  describe('q', () => {
    it('with no agent running stops at once', () => {
      const result = press(RUNNING, contextFor(), 'q');
      expect(result.state.phase).toBe('stopping');
      expect(result.effects).toEqual([{ kind: 'stop' }]);
    });

    it('with agents running asks first, naming how many; y stops, n keeps running', () => {
      const one = press(RUNNING, contextFor(undefined, { activeAgents: 1 }), 'q');
      expect(one.state.prompt?.text).toBe(
        'Quit? The running agent will be cancelled (its item returns to the queue).',
      );
      expect(one.effects).toEqual([]);
      expect(press(RUNNING, contextFor(undefined, { activeAgents: 2 }), 'q').state.prompt?.text).toMatch(
        /^Quit\? 2 running agents will be cancelled \(their items return to the queue\)\.$/,
      );
      const yes = press(one.state, contextFor(), 'y');
      expect(yes.state.phase).toBe('stopping');
      expect(yes.effects).toEqual([{ kind: 'stop' }]);
      const no = press(one.state, contextFor(), 'n');
      expect(no.state.phase).toBe('running');
      expect(no.state.prompt).toBeNull();
      expect(no.effects).toEqual([said('cancelled — nothing was done')]);
    });

    it('works before the engine has started and after it failed to start', () => {
      const failed: DashboardInputState = { ...INITIAL_DASHBOARD_INPUT_STATE, phase: 'start-failed' };
      for (const state of [INITIAL_DASHBOARD_INPUT_STATE, failed])
        expect(press(state, contextFor(), 'q').effects).toEqual([{ kind: 'stop' }]);
    });
  });

  it('before the engine runs, only ? / Esc q (and Ctrl-C) act', () => {
    const starting: DashboardInputState = { ...INITIAL_DASHBOARD_INPUT_STATE, selectedID: '4' };
    for (const key of ['j', 'k', 'd', 'm', 'f', 'p', TAB, ENTER, DOWN]) {
      const result = press(starting, contextFor(), key);
      expect(result.state).toBe(starting);
      expect(result.effects).toEqual([]);
    }
    expect(press(starting, contextFor(), '?').state.overlay).toEqual({ kind: 'help' });
    expect(press(starting, contextFor(), '/').state.filter).toEqual({ text: '', editing: true });
  });

  describe('an open question', () => {
    const asked = () => press(RUNNING, contextFor(), 'm').state;

    it('holds what y does: the event is enqueued and what was done is said', () => {
      const question = asked();
      expect(question.prompt?.text).toBe(
        'Merge flotilla/4 (revision r4) into the default branch and close #4?',
      );
      for (const yes of ['y', 'Y']) {
        const result = press(question, contextFor(), yes);
        expect(result.state.prompt).toBeNull();
        expect(result.effects).toEqual([
          { kind: 'enqueue', event: { type: 'userRequestedMerge', workItemID: '4' } },
          said('merge of #4 requested'),
        ]);
      }
    });

    it('n, N and Esc close it and say nothing was done', () => {
      for (const no of ['n', 'N', ESC]) {
        const result = press(asked(), contextFor(), no);
        expect(result.state.prompt).toBeNull();
        expect(result.effects).toEqual([said('cancelled — nothing was done')]);
      }
    });

    it('takes every other key: nothing moves, opens or acts', () => {
      const question = asked();
      const result = press(question, contextFor(), 'j', 'u', 'd', '?', 'q', TAB, 'x', '/', 'p', 'f', DOWN);
      expect(result.state).toBe(question);
      expect(result.effects).toEqual([]);
    });
  });

  describe('overlays', () => {
    it('? opens the help at its top; Esc, q and ? close it', () => {
      const opened = press({ ...RUNNING, overlayTop: 7 }, contextFor(), '?');
      expect(opened.state.overlay).toEqual({ kind: 'help' });
      expect(opened.state.overlayTop).toBe(0);
      for (const close of [ESC, 'q', '?'])
        expect(press(opened.state, contextFor(), close).state.overlay).toBeNull();
    });

    it('a fetched overlay closes with Esc or q, not with ?; other keys scroll it, not the list', () => {
      const transcript = press({ ...RUNNING, selectedID: '2' }, contextFor(), 'l').state;
      expect(transcript.overlay).toMatchObject({ kind: 'fetched', title: 'transcript /logs/impl-2.jsonl' });
      const stayed = press(transcript, contextFor(), '?', 'd');
      expect(stayed.state.overlay).not.toBeNull();
      expect(stayed.effects).toEqual([]);
      const scrolled = press(
        transcript,
        contextFor(undefined, { pane: { length: 100, live: false, top: 0, atEnd: false } }),
        'j',
      );
      expect(scrolled.state.overlayTop).toBe(1);
      expect(scrolled.state.selectedID).toBe(transcript.selectedID);
      expect(scrolled.state.detailTop).toBe(transcript.detailTop);
      expect(press(transcript, contextFor(), ESC).state.overlay).toBeNull();
      expect(press(transcript, contextFor(), 'q').state.overlay).toBeNull();
      expect(press(transcript, contextFor(), 'q').effects).toEqual([]);
    });
  });

  describe('scrolling a pane', () => {
    const pane = (top: number, options: { live?: boolean; atEnd?: boolean; length?: number } = {}) =>
      contextFor(undefined, {
        pane: {
          length: options.length ?? 100,
          live: options.live ?? false,
          top,
          atEnd: options.atEnd ?? false,
        },
      });
    const help: DashboardInputState = { ...RUNNING, overlay: { kind: 'help' }, overlayTop: 10 };
    const topAfter = (key: KeyPress | string, context: DashboardKeyContext, state = help) =>
      press(state, context, key).state.overlayTop;

    it('j k ↑ ↓ move a line, PgUp PgDn and space a page (body height - 2), never above the top', () => {
      expect(topAfter('j', pane(10))).toBe(11);
      expect(topAfter(DOWN, pane(10))).toBe(11);
      expect(topAfter('k', pane(10))).toBe(9);
      expect(topAfter(UP, pane(10))).toBe(9);
      expect(topAfter(flagged('pageDown'), pane(10))).toBe(28);
      expect(topAfter(' ', pane(10))).toBe(28);
      expect(topAfter(flagged('pageUp'), pane(10))).toBe(0);
      expect(topAfter('k', pane(0))).toBe(0);
      expect(topAfter(flagged('pageDown'), pane(90, { length: 95 }))).toBe(94);
    });

    it('g Home go to the top; G End show the last screenful (body height - 1 rows)', () => {
      expect(topAfter('g', pane(10))).toBe(0);
      expect(topAfter(flagged('home'), pane(10))).toBe(0);
      expect(topAfter('G', pane(10))).toBe(81);
      expect(topAfter(flagged('end'), pane(10))).toBe(81);
      expect(topAfter('G', pane(0, { length: 5 }))).toBe(0);
    });

    it('down at the end stays where it is', () => {
      expect(topAfter('j', pane(81, { atEnd: true }))).toBe(81);
    });

    it('a live detail pane follows again with End or G or by scrolling down to the end, and pauses going up', () => {
      const detail: DashboardInputState = { ...RUNNING, focus: 'detail', detailTop: 40 };
      const live = (top: number, atEnd = false) => pane(top, { live: true, atEnd });
      expect(press(detail, live(40), 'G').state.detailTop).toBeNull();
      expect(press(detail, live(40), flagged('end')).state.detailTop).toBeNull();
      expect(press(detail, live(81, true), 'j').state.detailTop).toBeNull();
      expect(press({ ...detail, detailTop: null }, live(81, true), 'k').state.detailTop).toBe(80);
    });

    it('with no pane drawn, scroll keys do nothing; other keys are not scroll keys', () => {
      const detail: DashboardInputState = { ...RUNNING, focus: 'detail' };
      expect(press(detail, contextFor(), 'j').state).toBe(detail);
      expect(press(help, pane(10), 'z').state).toBe(help);
    });
  });

  describe('moving the selection (list focus)', () => {
    const selectedAfter = (state: DashboardInputState, ...keys: (KeyPress | string)[]) =>
      press(state, contextFor(undefined, { bodyHeight: 6 }), ...keys).state.selectedID;

    it('j k ↑ ↓ move one row and stop at the ends', () => {
      expect(selectedAfter(RUNNING, 'j')).toBe('3');
      expect(selectedAfter(RUNNING, DOWN, DOWN)).toBe('2');
      expect(selectedAfter(RUNNING, 'j', 'j', 'j', 'j', 'j')).toBe('1');
      expect(selectedAfter(RUNNING, 'j', 'k')).toBe('4');
      expect(selectedAfter(RUNNING, UP)).toBe('4');
    });

    it('PgUp PgDn move a page (body height - 4), g Home G End to the first and last row', () => {
      expect(selectedAfter(RUNNING, flagged('pageDown'))).toBe('2');
      expect(selectedAfter({ ...RUNNING, selectedID: '1' }, flagged('pageUp'))).toBe('3');
      expect(selectedAfter(RUNNING, 'G')).toBe('1');
      expect(selectedAfter(RUNNING, flagged('end'))).toBe('1');
      expect(selectedAfter({ ...RUNNING, selectedID: '1' }, 'g')).toBe('4');
      expect(selectedAfter({ ...RUNNING, selectedID: '1' }, flagged('home'))).toBe('4');
    });

    it('a new selection starts its detail pane afresh; staying put changes nothing', () => {
      const scrolled: DashboardInputState = { ...RUNNING, detailTop: 12 };
      expect(press(scrolled, contextFor(), 'j').state.detailTop).toBeNull();
      expect(press(scrolled, contextFor(), 'k').state).toBe(scrolled);
    });

    it('moves from the row shown when the selected item has left the list', () => {
      const gone: DashboardInputState = { ...RUNNING, selectedID: '99' };
      expect(press(gone, contextFor(undefined, { shownIndex: 2 }), 'j').state.selectedID).toBe('1');
    });

    it('with an empty list nothing is selected', () => {
      const empty = contextFor(buildTestState(), { shownIndex: -1 });
      expect(press({ ...RUNNING, selectedID: null }, empty, 'j', 'G').state.selectedID).toBeNull();
    });

    it('Tab and Enter switch focus; with the detail pane focused the keys scroll it instead', () => {
      const detail = press(RUNNING, contextFor(), TAB).state;
      expect(detail.focus).toBe('detail');
      expect(press(detail, contextFor(), ENTER).state.focus).toBe('list');
      const context = contextFor(undefined, { pane: { length: 50, live: false, top: 3, atEnd: false } });
      const scrolled = press(detail, context, 'j').state;
      expect(scrolled.selectedID).toBe('4');
      expect(scrolled.detailTop).toBe(4);
    });
  });

  describe('item keys act on the selected item', () => {
    it('d asks before dispatching; y enqueues the implementor request', () => {
      const asked = press({ ...RUNNING, selectedID: '1' }, contextFor(), 'd');
      expect(asked.state.prompt?.text).toBe('Dispatch an implementor for #1?');
      expect(asked.effects).toEqual([]);
      expect(press(asked.state, contextFor(), 'y').effects).toEqual([
        { kind: 'enqueue', event: { type: 'userRequestedImplementorRun', workItemID: '1' } },
        said('dispatch of #1 requested'),
      ]);
    });

    it('x asks before cancelling the running session', () => {
      const asked = press({ ...RUNNING, selectedID: '2' }, contextFor(), 'x');
      expect(asked.state.prompt?.text).toBe('Cancel the implementor on #2? The item is parked as blocked.');
      expect(press(asked.state, contextFor(), 'y').effects[0]).toEqual({
        kind: 'enqueue',
        event: { type: 'userCancelledRun', sessionID: 'impl-2' },
      });
    });

    it('u acts at once, without asking', () => {
      const result = press({ ...RUNNING, selectedID: '3' }, contextFor(), 'u');
      expect(result.state.prompt).toBeNull();
      expect(result.effects).toEqual([
        { kind: 'enqueue', event: { type: 'userTransitionedStatus', workItemID: '3', newStatus: 'pending' } },
        said('#3 moved to pending (fresh retry budget)'),
      ]);
    });

    it('l, c and v open an overlay (loading at first, at its top) and ask for its lines', () => {
      const transcript = press({ ...RUNNING, selectedID: '2', overlayTop: 5 }, contextFor(), 'l');
      expect(transcript.state.overlay).toEqual({
        kind: 'fetched',
        title: 'transcript /logs/impl-2.jsonl',
        content: { status: 'loading' },
      });
      expect(transcript.state.overlayTop).toBe(0);
      expect(transcript.effects).toEqual([
        {
          kind: 'load-overlay',
          title: 'transcript /logs/impl-2.jsonl',
          source: { kind: 'transcript', sessionID: 'impl-2', path: '/logs/impl-2.jsonl' },
        },
      ]);
      expect(press(RUNNING, contextFor(), 'c').effects).toEqual([
        {
          kind: 'load-overlay',
          title: `checks log ${CHECKS_LOG}`,
          source: { kind: 'file', path: CHECKS_LOG, shortenTranscript: false },
        },
      ]);
      expect(press(RUNNING, contextFor(), 'v').effects).toEqual([
        {
          kind: 'load-overlay',
          title: 'diff of revision r4 (flotilla/4 at 0123456789ab)',
          source: { kind: 'diff', revisionID: 'r4' },
        },
      ]);
    });

    it('a key that does not apply says so and changes nothing', () => {
      for (const key of ['d', 'r', 'x', 'u', 'l']) {
        const result = press(RUNNING, contextFor(), key);
        expect(result.state).toBe(RUNNING);
        expect(result.effects).toEqual([
          said(`${key}: nothing to do for #4 (approved); ? lists the keys`, 'error'),
        ]);
      }
      // A paste that happens to be a run of item keys is one unknown key, too.
      expect(press(RUNNING, contextFor(), 'dr').effects).toEqual([
        said('dr: nothing to do for #4 (approved); ? lists the keys', 'error'),
      ]);
    });

    it('with no item, says none is selected', () => {
      const empty = contextFor(buildTestState(), { shownIndex: -1 });
      expect(press({ ...RUNNING, selectedID: null }, empty, 'd').effects).toEqual([
        said('d: no item selected', 'error'),
      ]);
    });

    it('act on the item just moved to, and on the row shown when the selected one left the list', () => {
      const moved = press(RUNNING, contextFor(), 'G', 'd');
      expect(moved.state.prompt?.text).toBe('Dispatch an implementor for #1?');
      const gone = press({ ...RUNNING, selectedID: '99' }, contextFor(undefined, { shownIndex: 1 }), 'u');
      expect(gone.effects[0]).toMatchObject({ event: { type: 'userTransitionedStatus', workItemID: '3' } });
    });
  });

  describe('the filter', () => {
    it('/ starts typing; letters (item keys too) are text; Enter keeps it, Esc then clears it', () => {
      const typing = press(RUNNING, contextFor(), '/', 'f', 'i', 'x');
      expect(typing.state.filter).toEqual({ text: 'fix', editing: true });
      expect(typing.effects).toEqual([]);
      const kept = press(typing.state, contextFor(), ENTER);
      expect(kept.state.filter).toEqual({ text: 'fix', editing: false });
      expect(press(kept.state, contextFor(), '/').state.filter).toEqual({ text: 'fix', editing: true });
      const cleared = press(kept.state, contextFor(), ESC);
      expect(cleared.state.filter).toEqual({ text: '', editing: false });
      expect(cleared.effects).toEqual([said('filter cleared')]);
    });

    it('Esc while typing clears it without a word; Esc with no filter does nothing', () => {
      const typing = press(RUNNING, contextFor(), '/', 'z').state;
      const cleared = press(typing, contextFor(), ESC);
      expect(cleared.state.filter).toEqual({ text: '', editing: false });
      expect(cleared.effects).toEqual([]);
      expect(press(RUNNING, contextFor(), ESC).state).toBe(RUNNING);
    });

    it('Backspace and Delete remove the last character', () => {
      const typing = press(RUNNING, contextFor(), '/', 'd', 'o', 'c').state;
      expect(press(typing, contextFor(), flagged('backspace')).state.filter.text).toBe('do');
      expect(press(typing, contextFor(), flagged('delete'), flagged('delete')).state.filter.text).toBe('d');
    });

    it('a paste stays on one line without control characters, and the text stops at 200 characters', () => {
      const pasted = press(RUNNING, contextFor(), '/', 'a\nb\u001b[31mc\u0007');
      expect(pasted.state.filter.text).toBe('a b [31mc ');
      expect(press(RUNNING, contextFor(), '/', 'x'.repeat(150), 'y'.repeat(150)).state.filter.text).toBe(
        `${'x'.repeat(150)}${'y'.repeat(50)}`,
      );
    });

    it('Ctrl, Meta and Tab combinations and empty input type nothing; ↑ ↓ still move the selection', () => {
      const typing = press(RUNNING, contextFor(), '/', 'a').state;
      for (const key of [flagged('ctrl', 'u'), flagged('meta', 'b'), TAB, typed('')])
        expect(press(typing, contextFor(), key).state).toBe(typing);
      const moved = press(typing, contextFor(), DOWN, DOWN, UP).state;
      expect(moved.selectedID).toBe('3');
      expect(moved.filter).toEqual({ text: 'a', editing: true });
    });
  });

  describe('a answers a waiting item', () => {
    const waitingBoard = (): EngineState => {
      const board = buildBoard();
      const item = buildWorkItem({ id: '5', title: 'Pick a store', status: 'waiting-for-input' });
      return {
        ...board,
        workItems: { ...board.workItems, '5': item },
        waitingForInput: {
          '5': {
            workItemID: '5',
            role: 'implementor',
            sessionID: 'impl-5',
            sessionNumber: 1,
            revisionID: null,
            questions: ['Which store?'],
            session: { runtime: 'claude', agentSessionID: 'impl-5', worktree: null, stateDir: null },
            askedAt: 1,
            answers: null,
          },
        },
      };
    };
    const onWaiting: DashboardInputState = { ...RUNNING, selectedID: '5' };

    it('opens the answer input; typed keys (q, /, d…) go into it; Enter sends it as the answer', () => {
      const context = contextFor(waitingBoard());
      const typing = press(onWaiting, context, 'a', 'S', 'Q', 'L', 'ite', ' q/d').state;
      expect(typing.answer).toEqual({ workItemID: '5', text: 'SQLite q/d' });
      const sent = press(typing, context, flagged('backspace'), ENTER);
      expect(sent.state.answer).toBeNull();
      expect(sent.effects).toContainEqual({
        kind: 'enqueue',
        event: { type: 'questionsAnswered', workItemID: '5', answers: 'SQLite q/', source: 'user' },
      });
    });

    it('refuses an empty answer and keeps the input; Esc drops it without sending', () => {
      const context = contextFor(waitingBoard());
      const empty = press(onWaiting, context, 'a', ' ', ENTER);
      expect(empty.state.answer).toEqual({ workItemID: '5', text: ' ' });
      expect(empty.effects).toEqual([said('the answer is empty; type it, or Esc to drop it', 'error')]);
      const dropped = press(empty.state, context, ESC);
      expect(dropped.state.answer).toBeNull();
      expect(dropped.effects).toEqual([said('answer dropped — nothing was sent')]);
    });

    it('says so on an item that is not waiting for answers', () => {
      const result = press({ ...RUNNING, selectedID: '3' }, contextFor(waitingBoard()), 'a');
      expect(result.state.answer).toBeNull();
      expect(result.effects).toEqual([
        said('a: #3 is not waiting for answers (blocked); ? lists the keys', 'error'),
      ]);
    });
  });

  it('f asks the engine to refresh and says so', () => {
    expect(press(RUNNING, contextFor(), 'f').effects).toEqual([
      { kind: 'refresh' },
      said('refreshing: polling the tracker and specs'),
    ]);
  });

  describe('the stats panel', () => {
    it('s opens it as an overlay (loading, at its top) and asks for its lines; s closes it again', () => {
      const opened = press({ ...RUNNING, overlayTop: 4 }, contextFor(), 's');
      expect(opened.state.overlay).toEqual({
        kind: 'fetched',
        title: STATS_OVERLAY_TITLE,
        content: { status: 'loading' },
      });
      expect(opened.state.overlayTop).toBe(0);
      expect(opened.effects).toEqual([
        { kind: 'load-overlay', title: STATS_OVERLAY_TITLE, source: { kind: 'stats' } },
      ]);
      expect(press(opened.state, contextFor(), 's')).toEqual({
        state: { ...opened.state, overlay: null },
        effects: [],
      });
    });

    it('s does not close another overlay, and does nothing before the engine runs', () => {
      const transcript = press({ ...RUNNING, selectedID: '2' }, contextFor(), 'l').state;
      expect(press(transcript, contextFor(), 's').state.overlay).toEqual(transcript.overlay);
      const starting = { ...INITIAL_DASHBOARD_INPUT_STATE };
      expect(press(starting, contextFor(), 's')).toEqual({ state: starting, effects: [] });
    });
  });

  describe('the planner view', () => {
    const planner: DashboardInputState = { ...RUNNING, view: 'planner' };
    const withPlanner = (run: ReturnType<typeof buildPlannerRun> | null, extra: Partial<EngineState> = {}) =>
      contextFor({
        ...buildBoard(),
        ...(run ? { agentRuns: { ...buildBoard().agentRuns, [run.sessionID]: run } } : {}),
        ...extra,
      });

    it('p switches to it and back, following the detail pane again', () => {
      const opened = press({ ...RUNNING, detailTop: 9 }, contextFor(), 'p').state;
      expect(opened.view).toBe('planner');
      expect(opened.detailTop).toBeNull();
      expect(press({ ...opened, detailTop: 3 }, contextFor(), 'p').state).toMatchObject({
        view: 'item',
        detailTop: null,
      });
    });

    it('x asks to cancel the latest planner run while it runs; y enqueues the cancel', () => {
      const older = buildPlannerRun({ sessionID: 'p0', status: 'completed', requestedAt: 1 });
      const context = contextFor({
        ...buildBoard(),
        agentRuns: {
          ...buildBoard().agentRuns,
          p0: older,
          p1: buildPlannerRun({ sessionID: 'p1', status: 'running', requestedAt: 2 }),
        },
      });
      const asked = press(planner, context, 'x');
      expect(asked.state.prompt?.text).toBe('Cancel the planner run?');
      expect(press(asked.state, context, 'y').effects).toEqual([
        { kind: 'enqueue', event: { type: 'userCancelledRun', sessionID: 'p1' } },
        said('cancel of the planner requested'),
      ]);
      const finished = withPlanner(buildPlannerRun({ sessionID: 'p2', status: 'completed', requestedAt: 3 }));
      expect(press(planner, finished, 'x').effects).toEqual([said('the planner is not running', 'error')]);
    });

    it('l opens the planner transcript, or says there is none', () => {
      const run = buildPlannerRun({ sessionID: 'p1', status: 'running' });
      expect(press(planner, withPlanner(run), 'l').effects).toEqual([
        {
          kind: 'load-overlay',
          title: 'transcript /logs/p1.jsonl',
          source: { kind: 'transcript', sessionID: 'p1', path: '/logs/p1.jsonl' },
        },
      ]);
      // Cluster mode: the run is on a worker, its file there; it is read by its session.
      const remote = buildPlannerRun({ sessionID: 'p1', status: 'running', logFilePath: null });
      expect(press(planner, withPlanner(remote), 'l').effects).toEqual([
        {
          kind: 'load-overlay',
          title: 'transcript of session p1 (streamed by its worker)',
          source: { kind: 'transcript', sessionID: 'p1', path: null },
        },
      ]);
      const requested = buildPlannerRun({ sessionID: 'p1', status: 'requested' });
      expect(press(planner, withPlanner(requested), 'l').effects).toEqual([
        said('the planner run has no transcript', 'error'),
      ]);
    });

    it('x and l with no planner run yet say so', () => {
      for (const key of ['x', 'l'])
        expect(press(planner, contextFor(), key).effects).toEqual([said('no planner run yet', 'error')]);
    });

    it('d asks to plan the approved specs not planned at their version; y enqueues the request', () => {
      const unplanned = withPlanner(null, {
        specs: { 'docs/specs/a.md': buildSpec({ filePath: 'docs/specs/a.md', blobSHA: 'a2' }) },
        lastPlannedSHAs: { 'docs/specs/a.md': 'a1' },
      });
      const asked = press(planner, unplanned, 'd');
      expect(asked.state.prompt?.text).toBe(
        'Run the planner now (1 approved spec not planned at the current version)?',
      );
      expect(press(asked.state, unplanned, 'y').effects).toEqual([
        { kind: 'enqueue', event: { type: 'userRequestedPlannerRun' } },
        said('planner run requested'),
      ]);
    });

    it('d is refused while the planner runs or is queued, and when every spec is planned', () => {
      const spec = buildSpec({ filePath: 'docs/specs/a.md', blobSHA: 'a2' });
      const specs = { 'docs/specs/a.md': spec };
      const running = withPlanner(buildPlannerRun({ sessionID: 'p1', status: 'running' }), { specs });
      expect(press(planner, running, 'd').effects).toEqual([said('the planner is already running', 'error')]);
      const queued = withPlanner(null, {
        specs,
        dispatchQueue: [
          {
            key: 'planner',
            command: { type: 'requestPlannerRun', specPaths: [], specSHAs: {} },
            reason: 'capacity',
            notBefore: null,
            priority: 2,
            queuedAt: 100,
          },
        ],
      });
      expect(press(planner, queued, 'd').effects).toEqual([said('a planner run is already queued', 'error')]);
      const planned = withPlanner(null, { specs, lastPlannedSHAs: { 'docs/specs/a.md': 'a2' } });
      expect(press(planner, planned, 'd').effects).toEqual([
        said('every approved spec is planned at its current version', 'error'),
      ]);
    });

    it('other keys scroll the planner pane, whatever has focus; item keys still apply to the selected item', () => {
      const context = contextFor(undefined, { pane: { length: 50, live: false, top: 3, atEnd: false } });
      const scrolled = press(planner, context, 'j').state;
      expect(scrolled.detailTop).toBe(4);
      expect(scrolled.selectedID).toBe('4');
      expect(press(planner, contextFor(), 'm').state.prompt?.text).toMatch(/^Merge flotilla\/4/);
    });
  });
});
