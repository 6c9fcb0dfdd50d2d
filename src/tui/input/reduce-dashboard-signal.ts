import type { DetailLine, Fetched } from '../view-model/build-detail-content.ts';
import { applyDashboardCommand } from './apply-dashboard-command.ts';
import type { DashboardInputResult } from './dashboard-effect.ts';
import type { DashboardInputState } from './dashboard-input-state.ts';

/** What changes the input state besides keys: the engine starting, a stop from outside, a finished load. */
export type DashboardSignal =
  | { type: 'start-finished' }
  | { type: 'start-failed'; message: string }
  /** SIGTERM / SIGHUP: shut down as if quitting was confirmed. */
  | { type: 'stop-requested' }
  | { type: 'overlay-loaded'; title: string; content: Fetched<DetailLine[]> }
  /** The frame selected the row now at the place of an item that left the list (or the first row). */
  | { type: 'selection-shown'; workItemID: string };

export function reduceDashboardSignal(
  state: DashboardInputState,
  signal: DashboardSignal,
): DashboardInputResult {
  switch (signal.type) {
    case 'start-finished':
      // A quit while starting has already moved on to stopping.
      return { state: state.phase === 'starting' ? { ...state, phase: 'running' } : state, effects: [] };
    case 'start-failed':
      return { state: { ...state, phase: 'start-failed', startError: signal.message }, effects: [] };
    case 'stop-requested':
      return applyDashboardCommand(state, { kind: 'quit' });
    case 'overlay-loaded':
      return {
        state: { ...state, overlay: { kind: 'fetched', title: signal.title, content: signal.content } },
        effects: [],
      };
    case 'selection-shown':
      return {
        state: state.selectedID === signal.workItemID ? state : { ...state, selectedID: signal.workItemID },
        effects: [],
      };
  }
}
