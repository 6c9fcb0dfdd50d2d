import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildRevision,
  buildSpec,
  buildTestState,
  buildWorkItem,
} from '../../test/support/shared/builders/index.ts';
import { buildDashboardDeps, type TestDashboard } from '../../test/support/tui/build-dashboard-deps.ts';
import { pause, waitFor } from '../../test/support/tui/wait-for.ts';
import type { EngineState } from '../engine/state-store/index.ts';
import { DashboardApp } from './dashboard-app.tsx';
import { KEY_BINDINGS } from './key-bindings.ts';

const DOWN = '\u001B[B';
const UP = '\u001B[A';
const ESC = '\u001B';
const TAB = '\t';

/** #4 approved (merge), #3 blocked, #2 implementing (session impl-2), #1 ready: in this list order. */
function buildBoardState(): EngineState {
  return buildTestState({
    workItems: [
      buildWorkItem({ id: '1', title: 'Add login', status: 'ready' }),
      buildWorkItem({ id: '2', title: 'Write docs', status: 'in-progress' }),
      buildWorkItem({ id: '3', title: 'Fix flaky test', status: 'blocked' }),
      buildWorkItem({ id: '4', title: 'Ship search', status: 'approved', linkedRevision: 'r4' }),
      buildWorkItem({ id: '5', title: 'Old and done', status: 'closed' }),
    ],
    revisions: [buildRevision({ id: 'r4', workItemID: '4', headRef: 'flotilla/4' })],
    agentRuns: [buildImplementorRun({ sessionID: 'impl-2', workItemID: '2' })],
  });
}

let active: { test: TestDashboard; unmount(): void } | null = null;
afterEach(() => {
  active?.unmount();
  active?.test.close();
  active = null;
});

async function renderDashboard(state: EngineState = buildBoardState(), options = {}) {
  const test = buildDashboardDeps(state, options);
  const instance = render(<DashboardApp deps={test.deps} />);
  active = { test, unmount: instance.unmount };
  const frame = () => instance.lastFrame() ?? '';
  const until = async (text: string | ((frame: string) => boolean), what?: string) => {
    const check = typeof text === 'string' ? (value: string) => value.includes(text) : text;
    try {
      await waitFor(() => check(frame()), what ?? String(text));
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- last frame ---\n${frame()}`);
    }
  };
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      instance.stdin.write(key);
      await pause(15);
    }
  };
  if (test.deps.start !== undefined) await until((value) => value.length > 0, 'first frame');
  return { test, engine: test.engine, frame, until, press, instance };
}

const selectedLine = (frame: string) => frame.split('\n').find((line) => line.includes('›#'));
const footer = (frame: string) => frame.split('\n').at(-1) ?? '';

describe('DashboardApp', () => {
  it('shows "Starting…" until start() resolves, then the sections and rows', async () => {
    const { test, frame, until } = await renderDashboard(buildBoardState(), { startImmediately: false });
    await until('Starting…');
    await pause(50);
    expect(frame()).toContain('Starting…');
    expect(frame()).not.toContain('NEEDS YOU');
    test.finishStart();
    await until('NEEDS YOU (2)');
    const text = frame();
    expect(text).toContain('AGENTS (1)');
    expect(text).toContain('BACKLOG (1)');
    expect(text).not.toContain('Starting…');
    for (const title of ['Add login', 'Write docs', 'Fix flaky test', 'Ship search'])
      expect(text).toContain(title);
    expect(text).not.toContain('Old and done');
    // Header: agents in use and the repository label.
    expect(text).toContain('agents 1/3');
    expect(text).toContain('acme/repo');
  });

  it('says why it could not start', async () => {
    const { test, until } = await renderDashboard(buildBoardState(), { startImmediately: false });
    test.finishStart(new Error('tracker unreachable'));
    await until('Could not start: tracker unreachable');
  });

  it('moves the selection with j/k and the arrows, and the detail pane follows', async () => {
    const { frame, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    expect(frame()).toContain('#4 Ship search');
    await press('j');
    await until((value) => selectedLine(value)?.includes('#3') === true, '#3 selected');
    await until('#3 Fix flaky test');
    await press(DOWN);
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await until('#2 Write docs');
    await press(DOWN, DOWN);
    await until(
      (value) => selectedLine(value)?.includes('#1') === true,
      '#1 selected (and stays at the end)',
    );
    await press('k');
    await until((value) => selectedLine(value)?.includes('#2') === true, 'back to #2');
    await press(UP);
    await until((value) => selectedLine(value)?.includes('#3') === true, 'back to #3');
    await until('#3 Fix flaky test');
  });

  it('a key right after a move acts on the newly selected item', async () => {
    const { engine, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('G');
    await until((value) => selectedLine(value)?.includes('#1') === true, '#1 selected');
    await press('d');
    await until('Dispatch an implementor for #1? (y/n)');
    await press('y');
    expect(engine.enqueued).toEqual([{ type: 'userRequestedImplementorRun', workItemID: '1' }]);
  });

  it('d on a dispatchable item asks first; y enqueues the request, n enqueues nothing', async () => {
    const { engine, frame, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('G');
    await until((value) => selectedLine(value)?.includes('#1') === true, '#1 selected');
    await press('d');
    await until('Dispatch an implementor for #1? (y/n)');
    await press('n');
    await until('cancelled — nothing was done');
    expect(engine.enqueued).toEqual([]);
    await press('d');
    await until('Dispatch an implementor for #1? (y/n)');
    await press('y');
    await until('dispatch of #1 requested');
    expect(engine.enqueued).toEqual([{ type: 'userRequestedImplementorRun', workItemID: '1' }]);
    expect(footer(frame())).toContain('dispatch of #1 requested');
  });

  it('x on a running item asks and cancels its session', async () => {
    const { engine, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('j', 'j');
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await press('x');
    await until('Cancel the implementor on #2? The item is parked as blocked. (y/n)');
    expect(engine.enqueued).toEqual([]);
    await press('y');
    await until('cancel of the implementor on #2 requested');
    expect(engine.enqueued).toEqual([{ type: 'userCancelledRun', sessionID: 'impl-2' }]);
  });

  it('u on a blocked item moves it to pending without asking', async () => {
    const { engine, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('j');
    await until((value) => selectedLine(value)?.includes('#3') === true, '#3 selected');
    await press('u');
    await until('#3 moved to pending (fresh retry budget)');
    expect(engine.enqueued).toEqual([
      { type: 'userTransitionedStatus', workItemID: '3', newStatus: 'pending' },
    ]);
  });

  it('m on an approved item asks and requests the merge', async () => {
    const { engine, until, press } = await renderDashboard();
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    await press('m');
    await until('Merge flotilla/4 (revision r4) into the default branch and close #4? (y/n)');
    await press('y');
    await until('merge of #4 requested');
    expect(engine.enqueued).toEqual([{ type: 'userRequestedMerge', workItemID: '4' }]);
  });

  it('a key that does not apply says so and does nothing', async () => {
    const { engine, until, press } = await renderDashboard();
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    await press('x');
    await until('x: nothing to do for #4 (approved); ? lists the keys');
    await press('r');
    await until('r: nothing to do for #4 (approved)');
    expect(engine.enqueued).toEqual([]);
  });

  it('the footer lists the keys that apply to the selection', async () => {
    const { frame, until, press } = await renderDashboard();
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    expect(footer(frame())).toMatch(/^m merge · v diff · \? keys · q quit/);
    await press('j', 'j');
    await until((value) => footer(value).startsWith('x cancel · l transcript'), 'keys of a running item');
  });

  it('while a question is open, other keys do nothing', async () => {
    const { engine, frame, until, press } = await renderDashboard();
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    await press('m');
    await until('Merge flotilla/4');
    await press('j', 'u', 'd', '?', 'q', TAB, 'x');
    await pause(50);
    expect(selectedLine(frame())).toContain('#4');
    expect(footer(frame())).toContain('Merge flotilla/4');
    expect(frame()).not.toContain('Keys — Esc');
    expect(engine.enqueued).toEqual([]);
    expect(active?.test.stops).toBe(0);
    await press(ESC);
    await until('cancelled — nothing was done');
    expect(engine.enqueued).toEqual([]);
  });

  it('? shows every key binding, and Esc closes the overlay', async () => {
    const { frame, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('?');
    await until('Keys — Esc, q or ? closes this');
    const text = frame();
    for (const binding of KEY_BINDINGS) {
      expect(text).toContain(binding.keys);
      expect(text).toContain(binding.description.split(' ').slice(0, 3).join(' '));
    }
    expect(text).not.toContain('NEEDS YOU');
    await press(ESC);
    await until((value) => value.includes('NEEDS YOU') && !value.includes('Keys — Esc'), 'help closed');
  });

  it('q with no running agent stops at once', async () => {
    const idle = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'ready' })] });
    const { test, until, press } = await renderDashboard(idle);
    await until('BACKLOG (1)');
    await press('q');
    await waitFor(() => test.stops === 1, 'stop()');
  });

  it('q when stop() fails: no unhandled rejection (the caller awaits stop again and reports it)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const idle = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'ready' })] });
      const { test, until, press } = await renderDashboard(idle, { stopError: new Error('worktree busy') });
      await until('BACKLOG (1)');
      await press('q');
      await waitFor(() => test.stops === 1, 'stop()');
      // Node reports an unhandled rejection once the microtask queue has drained; give it a turn.
      await pause(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('q with running agents asks first (naming how many), and n keeps running', async () => {
    const { test, frame, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('q');
    await until('Quit? The running agent will be cancelled');
    await press('n');
    await until('cancelled — nothing was done');
    expect(test.stops).toBe(0);
    expect(frame()).toContain('NEEDS YOU');
    await press('q');
    await until('Quit? The running agent will be cancelled');
    await press('y');
    await waitFor(() => test.stops === 1, 'stop()');
  });

  it('live stream: new lines appear; scrolling back pauses the view; End/G follows again', async () => {
    const { engine, frame, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('j', 'j');
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await until('waiting for the agent’s first words…');
    const channel = engine.channel('impl-2');
    channel.push(Array.from({ length: 60 }, (_, index) => `out ${index}`).join('\n'));
    await until('out 59');
    expect(frame()).toContain('● live');
    expect(frame()).not.toContain('out 5\n');

    await press(TAB, 'k', UP);
    await until('⏸ paused');
    await until((value) => !value.includes('out 59'), 'scrolled back past the last line');
    // Both scroll keys applied (under load the second lands after the first frame without out 59).
    await until((value) => value.includes('paused at line 39/'), 'paused at line 39');
    // The view stays where it was (only the line count in the status row grows).
    const withoutCount = (value: string) => value.replace(/line \d+\/\d+/, 'line N');
    const paused = frame();
    channel.push('fresh 1\nfresh 2');
    await until('paused at line 39/68');
    expect(frame()).not.toContain('fresh 2');
    expect(withoutCount(frame())).toBe(withoutCount(paused));

    await press('G');
    await until('fresh 2');
    expect(frame()).toContain('● live');
    await press('k');
    await until('⏸ paused');
    await press('\u001B[F'); // End
    await until((value) => value.includes('● live') && value.includes('fresh 2'), 'End follows again');
  });

  it('l opens the transcript of the latest run via readTextFile; Esc closes it', async () => {
    const { test, frame, until, press } = await renderDashboard();
    test.files['/logs/impl-2.jsonl'] = 'transcript line one\ntranscript line two';
    await until('NEEDS YOU');
    await press('j', 'j');
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await press('l');
    await until('transcript line two');
    expect(frame()).toContain('transcript /logs/impl-2.jsonl — Esc closes');
    expect(test.readFiles).toEqual(['/logs/impl-2.jsonl']);
    await press(ESC);
    await until((value) => !value.includes('transcript line two'), 'transcript closed');
  });

  it('l reads through readRunTranscript when the deps have it (a run whose file is on another machine)', async () => {
    const { test, frame, until, press } = await renderDashboard();
    const asked: string[] = [];
    test.deps.readRunTranscript = async (sessionID) => {
      asked.push(sessionID);
      return 'streamed by the worker\nsecond line';
    };
    await until('NEEDS YOU');
    await press('j', 'j');
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await press('l');
    await until('streamed by the worker');
    expect(asked).toEqual(['impl-2']);
    expect(test.readFiles).toEqual([]);
    expect(frame()).toContain('second line');
  });

  it('the transcript view shows tool calls with their commands and cuts long tool output short', async () => {
    const { test, frame, until, press } = await renderDashboard();
    test.files['/logs/impl-2.jsonl'] = [
      '[10:00:04] ASSISTANT [tool_use] Bash',
      '  command: npm run lint',
      '[10:00:05] USER [tool_result] ok',
      ...Array.from({ length: 20 }, (_, index) => `  lint line ${index + 1}`),
      '[10:00:06] RESULT success',
    ].join('\n');
    await until('NEEDS YOU');
    await press('j', 'j');
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await press('l');
    await until('command: npm run lint');
    await until('… (+12 more lines; `flotilla logs --full` has all)');
    expect(frame()).toContain('lint line 8');
    expect(frame()).not.toContain('lint line 9');
  });

  it('c opens the checks log of the revision', async () => {
    const log = '/repo/.flotilla/logs/checks/checks-4.log';
    const state = buildBoardState();
    const revision = state.revisions.r4;
    if (!revision) throw new Error('the board has revision r4');
    state.revisions.r4 = { ...revision, pipeline: { status: 'success', url: log, reason: null } };
    const { test, frame, until, press } = await renderDashboard(state);
    test.files[log] = '[flotilla] $ npm test\nall 12 tests passed';
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    await until('c opens it');
    await press('c');
    await until('all 12 tests passed');
    expect(frame()).toContain(`checks log ${log} — Esc closes`);
    expect(test.readFiles).toContain(log);
  });

  it('v shows the revision diff file by file, scrollable; Esc closes it', async () => {
    const { engine, frame, until, press } = await renderDashboard();
    engine.files.r4 = [
      {
        path: 'src/search.ts',
        status: 'added',
        patch: ['@@ -0,0 +1,2 @@', '+export const search = (q: string) => q;', '+// end'].join('\n'),
      },
      { path: 'assets/icon.png', status: 'added', patch: null },
    ];
    await until((value) => selectedLine(value)?.includes('#4') === true, '#4 selected');
    await press('v');
    await until('+export const search = (q: string) => q;');
    const text = frame();
    expect(text).toContain('diff of revision r4 (flotilla/4 at');
    expect(text).toContain('2 files changed: 2 added');
    expect(text).toContain('src/search.ts (added)');
    expect(text).toContain('assets/icon.png (added)');
    expect(text).toContain('binary, or too large to show here');
    await press(ESC);
    await until((value) => !value.includes('+export const search'), 'diff closed');
  });

  it('s opens the stats panel with the figures `flotilla stats` prints; s closes it', async () => {
    const { test, frame, until, press } = await renderDashboard();
    const at = Date.now() - 3_600_000;
    test.stats = {
      runs: [
        {
          sessionID: 'impl-4',
          role: 'implementor',
          workItemID: '4',
          status: 'completed',
          failureReason: null,
          cancelRequestedBy: null,
          requestedAt: at,
          endedAt: at + 60_000,
          costUSD: 0.3,
          inputTokens: 1200,
          outputTokens: 300,
          runtime: 'claude',
          model: null,
          account: null,
          estimatedFiles: null,
          changedFiles: null,
        },
      ],
      items: [
        {
          workItemID: '4',
          title: 'Ship search',
          status: 'approved',
          mergedAt: null,
          reviews: [{ state: 'APPROVED', at: at + 600_000 }],
          checks: [{ status: 'success', at: at + 300_000 }],
        },
      ],
    };
    await until('NEEDS YOU');
    await press('s');
    await until('ITEMS (approved or merged)');
    const text = frame();
    expect(text).toContain('stats of the last 7 days, as `flotilla stats` prints them — s or Esc closes');
    expect(text).toContain('1 item approved or merged (0 merged), first-pass approval 100% (1/1)');
    expect(text).toMatch(/#4\s+approved\s+\$0\.3000\s+1\s+10m00s/);
    await press('s');
    await until((value) => !value.includes('ITEMS (approved or merged)'), 'stats closed');
    expect(frame()).toContain('NEEDS YOU');
  });

  it('an unreadable transcript says so in the overlay', async () => {
    const { until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('j', 'j');
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');
    await press('l');
    await until('cannot read transcript /logs/impl-2.jsonl: ENOENT: /logs/impl-2.jsonl');
  });

  it('a refusal from the engine shows its reason in the footer', async () => {
    const { engine, until } = await renderDashboard();
    await until('NEEDS YOU');
    engine.emit({
      type: 'commandRejected',
      command: { type: 'requestImplementorRun', workItemID: '1' },
      reason: 'the policy allows 0 runs today',
      kind: 'policy',
      at: 0,
    });
    await until((value) =>
      footer(value).includes('requestImplementorRun #1 refused: the policy allows 0 runs today'),
    );
  });

  it('the header adds the cost of runs finished since start, and shows the total with earlier runs', async () => {
    const { engine, until } = await renderDashboard(buildBoardState(), { previousCostUSD: 1.5 });
    await until((value) => (value.split('\n')[0] ?? '').includes('$0.00 ($1.50 all runs)'));
    const usage = { costUSD: 0.3, inputTokens: 10, outputTokens: 10, turns: 1 };
    engine.emit({
      type: 'reviewerFailed',
      sessionID: 'cost-1',
      workItemID: '1',
      revisionID: '1',
      logFilePath: null,
      usage,
      reason: 'error',
      error: 'x',
      at: 0,
    });
    await until((value) => (value.split('\n')[0] ?? '').includes('$0.30 ($1.80 all runs)'));
  });

  it('the header leaves scripted runs (made-up costs) out of the cost and says so', async () => {
    const state = buildBoardState();
    state.agentRuns['scripted-1'] = buildReviewerRun({
      sessionID: 'scripted-1',
      workItemID: '1',
      revisionID: '1',
      status: 'completed',
      runtime: 'scripted',
    });
    const { engine, until } = await renderDashboard(state, { previousCostUSD: 1.5 });
    engine.emit({
      type: 'reviewerFailed',
      sessionID: 'scripted-1',
      workItemID: '1',
      revisionID: '1',
      logFilePath: null,
      usage: { costUSD: 0.3, inputTokens: 10, outputTokens: 10, turns: 1 },
      reason: 'error',
      error: 'x',
      at: 0,
    });
    await until((value) => (value.split('\n')[0] ?? '').includes('$0.00 ($1.50 all runs) (excl. scripted)'));
  });

  it('the header shows a banner while the day’s budget has paused dispatch', async () => {
    const state = buildBoardState();
    state.budgetPause = {
      period: 'day',
      spentUSD: 20.4,
      capUSD: 20,
      resumesAt: Date.UTC(2026, 10, 24),
      since: 0,
    };
    const { until } = await renderDashboard(state);
    await until(
      (value) =>
        (value.split('\n')[0] ?? '').includes("flotilla dispatch paused: day's budget $20.40 of $20.00"),
      'the budget banner',
    );
  });

  it('the header counts revisions whose checks are pending', async () => {
    const state = buildBoardState();
    const revision = state.revisions.r4;
    if (!revision) throw new Error('the board has revision r4');
    state.revisions.r4 = { ...revision, pipeline: { status: 'pending', url: null, reason: null } };
    const { until } = await renderDashboard(state);
    await until((value) => (value.split('\n')[0] ?? '').includes('checks 1'), 'checks in the header');
  });

  it('planner view: d plans the unplanned approved specs after asking; refused while the planner runs', async () => {
    const state = {
      ...buildBoardState(),
      ...buildTestState({
        specs: [buildSpec({ filePath: 'docs/specs/a.md', blobSHA: 'a2' })],
        lastPlannedSHAs: { 'docs/specs/a.md': 'a1' },
      }),
      workItems: buildBoardState().workItems,
    };
    const { engine, until, press } = await renderDashboard(state);
    await until('NEEDS YOU');
    await press('p');
    await press('d');
    await until('Run the planner now (1 approved spec not planned at the current version)? (y/n)');
    await press('y');
    await until('planner run requested');
    expect(engine.enqueued).toEqual([{ type: 'userRequestedPlannerRun' }]);

    engine.setState((current) => ({
      ...current,
      agentRuns: {
        ...current.agentRuns,
        p1: buildPlannerRun({ sessionID: 'p1', status: 'running', requestedAt: Date.now() }),
      },
    }));
    await until('session p1');
    await press('d');
    await until('the planner is already running');
    expect(engine.enqueued).toHaveLength(1);
  });

  it('f asks the engine to refresh', async () => {
    const { engine, until, press } = await renderDashboard();
    await until('NEEDS YOU');
    await press('f');
    await until('refreshing: polling the tracker and specs');
    expect(engine.refreshes).toBe(1);
  });

  it('the list follows state changes: an item that starts running moves to AGENTS', async () => {
    const { engine, until } = await renderDashboard();
    await until('AGENTS (1)');
    engine.setState((state) => ({
      ...state,
      agentRuns: {
        ...state.agentRuns,
        'impl-1': buildImplementorRun({ sessionID: 'impl-1', workItemID: '1', requestedAt: 5 }),
      },
    }));
    await until('AGENTS (2)');
    await until('BACKLOG (0)');
  });

  it('/ filters the list as it is typed; keys typed there are text, not actions; Enter keeps it, Esc clears it', async () => {
    const { engine, frame, until, press } = await renderDashboard();
    await until('NEEDS YOU (2)');
    await press('/', 'f', 'i', 'x');
    await until((value) => footer(value).includes('/fix'), 'the filter in the footer');
    await until('NEEDS YOU (1)');
    expect(footer(frame())).toContain('1 of 4');
    await until('AGENTS (0)');
    expect(frame()).toContain('Fix flaky test');
    expect(frame()).not.toContain('Ship search');
    // The selection moved to the one match, and the `x` typed was text, not a cancel.
    await until((value) => selectedLine(value)?.includes('#3') === true, '#3 selected');
    expect(engine.enqueued).toEqual([]);

    await press('\u007f', '\u007f', '\u007f', 'd', 'o', 'c', 's');
    await until((value) => footer(value).includes('/docs'), 'edited filter');
    await until('AGENTS (1)');
    await until('NEEDS YOU (0)');
    await press('\r');
    await until((value) => footer(value).includes('/docs (1 of 4, Esc clears)'), 'the kept filter');
    // Keys act again, on the filtered list.
    await until((value) => selectedLine(value)?.includes('#2') === true, '#2 selected');

    await press(ESC);
    await until('NEEDS YOU (2)');
    await until('filter cleared');
    expect(frame()).toContain('Ship search');
  });

  it('a filter that matches nothing says so, and Esc while typing clears it', async () => {
    const { frame, until, press } = await renderDashboard();
    await until('NEEDS YOU (2)');
    await press('/', 'z', 'z', 'z');
    await until('No open work item matches "zzz"');
    expect(footer(frame())).toContain('0 of 4');
    await press(ESC);
    await until('NEEDS YOU (2)');
    expect(footer(frame())).not.toContain('/zzz');
  });

  it('with no work items, says how to get some', async () => {
    const { until } = await renderDashboard(buildTestState());
    await until('No work items yet');
  });
});
