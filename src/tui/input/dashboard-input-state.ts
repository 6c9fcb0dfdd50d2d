import type { EngineEvent } from '../../domain/index.ts';
import type { DetailLine, Fetched } from '../view-model/build-detail-content.ts';

/** The engine's lifecycle as the dashboard sees it: keys before `running` do little, `stopping` ignores most. */
export type DashboardPhase = 'starting' | 'running' | 'stopping' | 'start-failed';

/** Help, or lines fetched for a title: a file (transcript, checks log) or a revision's diff. */
export type DashboardOverlay =
  | { kind: 'help' }
  | { kind: 'fetched'; title: string; content: Fetched<DetailLine[]> };

/** Where an overlay's lines come from; loading them is an effect, the result comes back as a signal. */
export type OverlaySource =
  | { kind: 'file'; path: string; shortenTranscript: boolean }
  /** A run's transcript by its session: its file here, or (cluster mode) what its worker streamed. */
  | { kind: 'transcript'; sessionID: string; path: string | null }
  | { kind: 'diff'; revisionID: string }
  /** The outcome statistics of the last 7 days (`flotilla stats`), read when opened. */
  | { kind: 'stats' };

/** The stats panel's title (`s` opens it; `s` again, Esc or q close it). */
export const STATS_OVERLAY_TITLE = 'stats of the last 7 days, as `flotilla stats` prints them';

/** What a key does once it acts, at once or after `y`: data, so an open question can hold it. */
export type DashboardCommand =
  | { kind: 'enqueue'; event: EngineEvent; done: string }
  | { kind: 'open-overlay'; title: string; source: OverlaySource }
  | { kind: 'quit' };

export interface DashboardPrompt {
  text: string;
  onYes: DashboardCommand;
}

/** The list filter (`/`): its text, and whether keys are being typed into it. */
export interface DashboardFilter {
  text: string;
  editing: boolean;
}

/** Everything keys change. What the engine, streams and terminal size say comes in as context instead. */
export interface DashboardInputState {
  phase: DashboardPhase;
  startError: string | null;
  focus: 'list' | 'detail';
  view: 'item' | 'planner';
  /** The selected item; null until the first frame shows one. The selection follows the item. */
  selectedID: string | null;
  /** First line of the detail pane; null follows the end of a live stream. */
  detailTop: number | null;
  overlay: DashboardOverlay | null;
  overlayTop: number | null;
  /** An open question (y/n/Esc): while it is open no other key acts. */
  prompt: DashboardPrompt | null;
  filter: DashboardFilter;
  /** Ctrl-C presses so far: the second one forces the exit. */
  interrupts: number;
  /** The answer being typed for a waiting item's agent questions (`a`); null when none. */
  answer: { workItemID: string; text: string } | null;
}

export const INITIAL_DASHBOARD_INPUT_STATE: DashboardInputState = {
  phase: 'starting',
  startError: null,
  focus: 'list',
  view: 'item',
  selectedID: null,
  detailTop: null,
  overlay: null,
  overlayTop: 0,
  prompt: null,
  filter: { text: '', editing: false },
  interrupts: 0,
  answer: null,
};
