import { api, type EngineAction, type RunSummary } from './api-client.ts';
import type { BoardColumn } from './build-board-columns.ts';
import type { DetailBoxes, DetailSection } from './item-detail.tsx';
import { moveSelection, type SelectionMove } from './move-selection.ts';
import type { PanelName } from './panel-buttons.tsx';

const MOVES: Readonly<Record<string, SelectionMove>> = {
  j: 'down',
  ArrowDown: 'down',
  k: 'up',
  ArrowUp: 'up',
  h: 'left',
  ArrowLeft: 'left',
  l: 'right',
  ArrowRight: 'right',
};

/** The keys that show or hide a panel under the board. */
const PANEL_KEYS = { t: 'talk', p: 'plans' } as const;

/** The keys that scroll the open item to a section (opening it first). */
const SECTION_KEYS: Readonly<Record<string, DetailSection>> = { v: 'diff', l: 'transcript', c: 'checks' };

/** An action that asks first: `y` does it, `n` or Esc drops it. */
export interface PendingConfirm {
  question: string;
  run(): void;
}

/** What the keys act on, read at the key (set with the state, so a fast second key sees the first's result). */
export interface DashboardKeyState extends Record<PanelName, boolean> {
  selectedID: string | null;
  openID: string | null;
  help: boolean;
  confirm: PendingConfirm | null;
  runs: RunSummary[];
}

/** What a key may read and change in the dashboard. */
export interface DashboardKeyContext {
  keys: DashboardKeyState;
  columns: readonly BoardColumn[];
  boxes: DetailBoxes;
  open(id: string | null): void;
  reload(): Promise<void>;
  say(text: string): void;
  setSelectedID(id: string | null): void;
  setHelp(shown: boolean): void;
  setPanel(name: PanelName, shown: boolean): void;
  setConfirm(next: PendingConfirm | null): void;
  setFocus(focus: { section: DetailSection; at: number }): void;
}

/** One key on the dashboard, as the terminal dashboard's keys (`?` lists them). */
export function handleDashboardKey(event: KeyboardEvent, context: DashboardKeyContext): void {
  const typing = event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement;
  if (typing) {
    if (event.key === 'Escape') (event.target as HTMLElement).blur();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const { keys } = context;
  if (keys.confirm !== null) {
    event.preventDefault();
    if (event.key === 'y') keys.confirm.run();
    if (event.key === 'y' || event.key === 'n' || event.key === 'Escape') context.setConfirm(null);
    return;
  }
  if (handleBoardKey(event, context)) return;
  const id = keys.openID ?? keys.selectedID;
  // The rest act on an item.
  if (id !== null) handleItemKey(event, id, context);
}

/** Moving, opening, closing, panels, help and reload; false when the key is none of those. */
function handleBoardKey(event: KeyboardEvent, context: DashboardKeyContext): boolean {
  const { keys } = context;
  const move = MOVES[event.key];
  if (move !== undefined) {
    event.preventDefault();
    context.setSelectedID(moveSelection(context.columns, keys.selectedID, move));
  } else if (event.key === 'Enter' && keys.selectedID !== null) {
    context.open(keys.selectedID);
  } else if (event.key === 'Escape') {
    if (keys.help) context.setHelp(false);
    else if (keys.talk || keys.plans) context.setPanel(keys.talk ? 'talk' : 'plans', false);
    else context.open(null);
  } else if (event.key === 't' || event.key === 'p') {
    context.setPanel(PANEL_KEYS[event.key], !keys[PANEL_KEYS[event.key]]);
  } else if (event.key === '?') {
    context.setHelp(!keys.help);
  } else if (event.key === 'f') {
    void context.reload();
  } else {
    return false;
  }
  return true;
}

/** The keys that act on the open (or else the selected) item. */
function handleItemKey(event: KeyboardEvent, id: string, context: DashboardKeyContext): void {
  const { keys } = context;
  const report = (what: string, run: () => Promise<unknown>) =>
    run().then(
      () => context.say(`${what} #${id}: done`),
      (error: unknown) =>
        context.say(`${what} #${id}: ${error instanceof Error ? error.message : String(error)}`),
    );
  const engine = (action: EngineAction) => () => report(action, () => api.engineAction(id, action));
  const ask = (question: string, run: () => void) =>
    context.setConfirm({ question: `${question} y / n`, run });
  const section = SECTION_KEYS[event.key];
  if (event.key === 'd') {
    // As the terminal dashboard's d: a failed agent is retried (asks first), anything else dispatched.
    if (keys.runs.find((run) => run.workItemID === id)?.status === 'failed') {
      ask(`retry #${id}'s failed agent?`, engine('retry'));
    } else {
      void report('dispatch', () => api.dispatch(id));
    }
  } else if (event.key === 'x') {
    ask(`cancel #${id}'s running agent (the item is parked as blocked)?`, engine('cancel'));
  } else if (event.key === 'u') {
    void engine('unblock')();
  } else if (event.key === 'm') {
    ask(`merge #${id} and close it?`, engine('merge'));
  } else if (event.key === 'A') {
    ask(`approve #${id}'s revision?`, () => void report('approve', () => api.review(id, 'approve', '')));
  } else if (section !== undefined) {
    if (keys.openID !== id) context.open(id);
    context.setFocus({ section, at: Date.now() });
  } else if (keys.openID !== null) {
    focusBox(event, context.boxes);
  }
}

/** `a`, `R`, `C` on an open item: into its answer, review or comment box. */
function focusBox(event: KeyboardEvent, boxes: DetailBoxes): void {
  const box =
    event.key === 'a'
      ? boxes.answer
      : event.key === 'R'
        ? boxes.review
        : event.key === 'C'
          ? boxes.comment
          : null;
  if (box !== null) {
    event.preventDefault();
    box.focus();
  }
}
