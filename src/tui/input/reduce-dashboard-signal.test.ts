import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../test/support/shared/deep-freeze.ts';
import { type DashboardInputState, INITIAL_DASHBOARD_INPUT_STATE } from './dashboard-input-state.ts';
import { reduceDashboardSignal } from './reduce-dashboard-signal.ts';

const RUNNING: DashboardInputState = deepFreeze({
  ...INITIAL_DASHBOARD_INPUT_STATE,
  phase: 'running',
  selectedID: '4',
});

describe('reduceDashboardSignal', () => {
  it('start-finished moves starting to running, but not a quit that came first', () => {
    const started = reduceDashboardSignal(deepFreeze(INITIAL_DASHBOARD_INPUT_STATE), {
      type: 'start-finished',
    });
    expect(started).toEqual({ state: { ...INITIAL_DASHBOARD_INPUT_STATE, phase: 'running' }, effects: [] });
    const stopping = deepFreeze({ ...INITIAL_DASHBOARD_INPUT_STATE, phase: 'stopping' as const });
    expect(reduceDashboardSignal(stopping, { type: 'start-finished' }).state).toBe(stopping);
  });

  it('start-failed keeps why', () => {
    const failed = reduceDashboardSignal(deepFreeze(INITIAL_DASHBOARD_INPUT_STATE), {
      type: 'start-failed',
      message: 'tracker unreachable',
    });
    expect(failed.state).toMatchObject({ phase: 'start-failed', startError: 'tracker unreachable' });
    expect(failed.effects).toEqual([]);
  });

  it('stop-requested shuts down as a confirmed quit does, closing an open question', () => {
    const asking = deepFreeze({ ...RUNNING, prompt: { text: 'Quit?', onYes: { kind: 'quit' as const } } });
    const result = reduceDashboardSignal(asking, { type: 'stop-requested' });
    expect(result.state).toMatchObject({ phase: 'stopping', prompt: null });
    expect(result.effects).toEqual([{ kind: 'stop' }]);
  });

  it('overlay-loaded shows the lines (or why they could not be read) under their title', () => {
    const loading = deepFreeze({
      ...RUNNING,
      overlay: { kind: 'fetched' as const, title: 'transcript /t', content: { status: 'loading' as const } },
      overlayTop: 0,
    });
    const lines = [{ text: 'one' }];
    expect(
      reduceDashboardSignal(loading, {
        type: 'overlay-loaded',
        title: 'transcript /t',
        content: { status: 'ok', value: lines },
      }).state.overlay,
    ).toEqual({ kind: 'fetched', title: 'transcript /t', content: { status: 'ok', value: lines } });
    expect(
      reduceDashboardSignal(loading, {
        type: 'overlay-loaded',
        title: 'transcript /t',
        content: { status: 'error', message: 'ENOENT' },
      }).state.overlay,
    ).toEqual({ kind: 'fetched', title: 'transcript /t', content: { status: 'error', message: 'ENOENT' } });
  });

  it('selection-shown makes the shown row the selection, keeping the detail pane where it is', () => {
    const scrolled = deepFreeze({ ...RUNNING, selectedID: null, detailTop: 5 });
    expect(reduceDashboardSignal(scrolled, { type: 'selection-shown', workItemID: '3' }).state).toEqual({
      ...scrolled,
      selectedID: '3',
    });
    expect(reduceDashboardSignal(RUNNING, { type: 'selection-shown', workItemID: '4' }).state).toBe(RUNNING);
  });
});
