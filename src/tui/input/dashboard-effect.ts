import type { EngineEvent } from '../../domain/index.ts';
import type { DashboardInputState, OverlaySource } from './dashboard-input-state.ts';

/** What the component does after a key: the reducers only describe it, so they stay pure. */
export type DashboardEffect =
  | { kind: 'enqueue'; event: EngineEvent }
  | { kind: 'say'; text: string; tone: 'info' | 'error' }
  | { kind: 'refresh' }
  /** Read the lines, then signal `overlay-loaded` with the same title. */
  | { kind: 'load-overlay'; title: string; source: OverlaySource }
  /** Stop the engine, then leave. */
  | { kind: 'stop' }
  | { kind: 'force-exit' };

export interface DashboardInputResult {
  state: DashboardInputState;
  effects: DashboardEffect[];
}
