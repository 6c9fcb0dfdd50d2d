import type { DashboardInputResult } from './dashboard-effect.ts';
import type { DashboardCommand, DashboardInputState } from './dashboard-input-state.ts';

/** Carries out a command: a key that acts at once, or the `y` to an open question. */
export function applyDashboardCommand(
  state: DashboardInputState,
  command: DashboardCommand,
): DashboardInputResult {
  switch (command.kind) {
    case 'enqueue':
      return {
        state,
        effects: [
          { kind: 'enqueue', event: command.event },
          { kind: 'say', text: command.done, tone: 'info' },
        ],
      };
    case 'open-overlay':
      // Shown at once ("loading…"); the lines (or why they could not be read) arrive as a signal.
      return {
        state: {
          ...state,
          overlay: { kind: 'fetched', title: command.title, content: { status: 'loading' } },
          overlayTop: 0,
        },
        effects: [{ kind: 'load-overlay', title: command.title, source: command.source }],
      };
    case 'quit':
      return { state: { ...state, phase: 'stopping', prompt: null }, effects: [{ kind: 'stop' }] };
  }
}
