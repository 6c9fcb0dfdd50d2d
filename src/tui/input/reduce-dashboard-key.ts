import { revisionName } from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/index.ts';
import { getActivePlannerRun, getSpecsRequiringPlanning } from '../../engine/state-store/selectors/index.ts';
import { buildItemActions, type ItemAction } from '../actions/build-item-actions.ts';
import type { WorkItemRow } from '../view-model/build-work-item-sections.ts';
import { applyDashboardCommand } from './apply-dashboard-command.ts';
import type { DashboardEffect, DashboardInputResult } from './dashboard-effect.ts';
import {
  type DashboardCommand,
  type DashboardInputState,
  STATS_OVERLAY_TITLE,
} from './dashboard-input-state.ts';

/** The flags of a key press the dashboard reads (Ink's `Key` has these and more). */
export interface KeyFlags {
  upArrow: boolean;
  downArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  home: boolean;
  end: boolean;
  return: boolean;
  escape: boolean;
  tab: boolean;
  backspace: boolean;
  delete: boolean;
  ctrl: boolean;
  meta: boolean;
}

/** One key press: the text it typed (a paste arrives as one) and its flags. */
export interface KeyPress {
  input: string;
  key: KeyFlags;
}

/** What the screen showed when the key arrived: keys act on what the user sees. */
export interface DashboardKeyContext {
  engineState: EngineState;
  /** The list as shown (filtered), top to bottom. */
  rows: readonly WorkItemRow[];
  /** The row shown selected (-1: none): it stands in when the selected item has left the list. */
  shownIndex: number;
  /** Rows between the header and the footer. */
  bodyHeight: number;
  /** The pane keys scroll (the overlay when one is open, else the detail pane) as drawn; null if none. */
  pane: { length: number; live: boolean; top: number; atEnd: boolean } | null;
  /** Agents running now: quitting asks first when there are any. */
  activeAgents: number;
}

type ScrollDelta = number | 'home' | 'end';

const ITEM_KEYS = 'drxumvlc';
const FILTER_MAX_LENGTH = 200;
const ANSWER_MAX_LENGTH = 20_000;

/**
 * The dashboard's answer to one key: the next state, and the effects the component carries out (enqueue an
 * engine event, say something in the footer, open an overlay, stop). Precedence, first match wins: Ctrl-C;
 * nothing while stopping; an open question takes every key; an overlay takes Esc/q(/? for help, s for stats) and scroll keys;
 * typing into the filter; then `?` `/` Esc `q`, which work before the engine has started; then the rest.
 */
export function reduceDashboardKey(
  state: DashboardInputState,
  press: KeyPress,
  context: DashboardKeyContext,
): DashboardInputResult {
  const { input, key } = press;
  if (key.ctrl && input === 'c') {
    const counted = { ...state, interrupts: state.interrupts + 1 };
    if (counted.interrupts > 1 || state.phase === 'stopping') return result(counted, { kind: 'force-exit' });
    return applyDashboardCommand(counted, { kind: 'quit' });
  }
  if (state.phase === 'stopping') return result(state);
  if (state.prompt !== null) {
    if (input === 'y' || input === 'Y')
      return applyDashboardCommand({ ...state, prompt: null }, state.prompt.onYes);
    if (input === 'n' || input === 'N' || key.escape)
      return result({ ...state, prompt: null }, say('cancelled — nothing was done'));
    return result(state);
  }
  if (state.overlay !== null) {
    if (key.escape || input === 'q' || (input === '?' && state.overlay.kind === 'help'))
      return result({ ...state, overlay: null });
    if (input === 's' && state.overlay.kind === 'fetched' && state.overlay.title === STATS_OVERLAY_TITLE)
      return result({ ...state, overlay: null });
    return scrollKey(state, press, context);
  }
  if (state.answer !== null) return editAnswer(state, state.answer, press);
  if (state.filter.editing) return editFilter(state, press, context);
  if (input === '?') return result({ ...state, overlay: { kind: 'help' }, overlayTop: 0 });
  if (input === '/') return result({ ...state, filter: { text: state.filter.text, editing: true } });
  if (key.escape && state.filter.text !== '')
    return result({ ...state, filter: { text: '', editing: false } }, say('filter cleared'));
  if (input === 'q') return askToQuit(state, context);
  if (state.phase !== 'running') return result(state);
  if (key.tab || key.return) return result({ ...state, focus: state.focus === 'list' ? 'detail' : 'list' });
  if (input === 'f')
    return result(state, { kind: 'refresh' }, say('refreshing: polling the tracker and specs'));
  if (input === 'p')
    return result({ ...state, detailTop: null, view: state.view === 'planner' ? 'item' : 'planner' });
  if (input === 's')
    return applyDashboardCommand(state, {
      kind: 'open-overlay',
      title: STATS_OVERLAY_TITLE,
      source: { kind: 'stats' },
    });
  if (state.view === 'planner' && (input === 'x' || input === 'l' || input === 'd'))
    return plannerKey(state, input, context.engineState);
  if (input === 'a') return startAnswer(state, context);
  // A paste such as "dr" is a substring too: it finds no action and says so, as a single unknown key does.
  if (ITEM_KEYS.includes(input) && input !== '') return itemKey(state, input, context);
  if (state.focus === 'detail' || state.view === 'planner') return scrollKey(state, press, context);
  return moveSelection(state, press, context);
}

function result(state: DashboardInputState, ...effects: DashboardEffect[]): DashboardInputResult {
  return { state, effects };
}

function say(text: string, tone: 'info' | 'error' = 'info'): DashboardEffect {
  return { kind: 'say', text, tone };
}

function askToQuit(state: DashboardInputState, context: DashboardKeyContext): DashboardInputResult {
  const running = context.activeAgents;
  if (running === 0) return applyDashboardCommand(state, { kind: 'quit' });
  return result({
    ...state,
    prompt: {
      text:
        running === 1
          ? 'Quit? The running agent will be cancelled (its item returns to the queue).'
          : `Quit? ${running} running agents will be cancelled (their items return to the queue).`,
      onYes: { kind: 'quit' },
    },
  });
}

/** Keys while typing the filter: the list narrows as it is typed; arrows still move the selection. */
function editFilter(
  state: DashboardInputState,
  { input, key }: KeyPress,
  context: DashboardKeyContext,
): DashboardInputResult {
  const text = state.filter.text;
  if (key.escape) return result({ ...state, filter: { text: '', editing: false } });
  if (key.return) return result({ ...state, filter: { text, editing: false } });
  if (key.backspace || key.delete)
    return result({ ...state, filter: { text: text.slice(0, -1), editing: true } });
  if (key.upArrow) return select(state, currentIndex(state, context) - 1, context);
  if (key.downArrow) return select(state, currentIndex(state, context) + 1, context);
  if (key.ctrl || key.meta || key.tab || input === '') return result(state);
  // A paste arrives as one input; keep it on one line and free of control characters.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const typed = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return result({ ...state, filter: { text: `${text}${typed}`.slice(0, FILTER_MAX_LENGTH), editing: true } });
}

/** `a` on an item waiting for input: type the answers to its agent's questions. */
function startAnswer(state: DashboardInputState, context: DashboardKeyContext): DashboardInputResult {
  const target = context.rows[currentIndex(state, context)] ?? null;
  if (target === null) return result(state, say('a: no item selected', 'error'));
  if (target.item.status !== 'waiting-for-input' || !context.engineState.waitingForInput[target.item.id]) {
    return result(
      state,
      say(
        `a: #${target.item.id} is not waiting for answers (${target.item.status}); ? lists the keys`,
        'error',
      ),
    );
  }
  return result({ ...state, answer: { workItemID: target.item.id, text: '' } });
}

/** Keys while typing an answer: Enter sends it (not when empty), Esc drops it, Backspace deletes. */
function editAnswer(
  state: DashboardInputState,
  answer: { workItemID: string; text: string },
  { input, key }: KeyPress,
): DashboardInputResult {
  if (key.escape) return result({ ...state, answer: null }, say('answer dropped — nothing was sent'));
  if (key.return) {
    const text = answer.text.trim();
    if (text === '') return result(state, say('the answer is empty; type it, or Esc to drop it', 'error'));
    return applyDashboardCommand(
      { ...state, answer: null },
      {
        kind: 'enqueue',
        event: { type: 'questionsAnswered', workItemID: answer.workItemID, answers: text, source: 'user' },
        done: `answered #${answer.workItemID}; its agent's session resumes`,
      },
    );
  }
  if (key.backspace || key.delete)
    return result({ ...state, answer: { ...answer, text: answer.text.slice(0, -1) } });
  if (key.ctrl || key.meta || key.tab || input === '') return result(state);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const typed = input.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ');
  return result({
    ...state,
    answer: { ...answer, text: `${answer.text}${typed}`.slice(0, ANSWER_MAX_LENGTH) },
  });
}

/** The selected row's index in the list as shown, or the shown row when the selected item left it. */
function currentIndex(state: DashboardInputState, context: DashboardKeyContext): number {
  const index = context.rows.findIndex((row) => row.item.id === state.selectedID);
  return index >= 0 ? index : context.shownIndex;
}

/** Selects the row at `index` (clamped to the list); a new selection starts its detail pane afresh. */
function select(
  state: DashboardInputState,
  index: number,
  context: DashboardKeyContext,
): DashboardInputResult {
  const row = context.rows[Math.max(0, Math.min(context.rows.length - 1, index))];
  if (!row || row.item.id === state.selectedID) return result(state);
  return result({ ...state, selectedID: row.item.id, detailTop: null });
}

function moveSelection(
  state: DashboardInputState,
  { input, key }: KeyPress,
  context: DashboardKeyContext,
): DashboardInputResult {
  const index = currentIndex(state, context);
  const page = context.bodyHeight - 4;
  if (key.upArrow || input === 'k') return select(state, index - 1, context);
  if (key.downArrow || input === 'j') return select(state, index + 1, context);
  if (key.pageUp) return select(state, index - page, context);
  if (key.pageDown) return select(state, index + page, context);
  if (key.home || input === 'g') return select(state, 0, context);
  if (key.end || input === 'G') return select(state, context.rows.length - 1, context);
  return result(state);
}

function scrollKey(
  state: DashboardInputState,
  { input, key }: KeyPress,
  context: DashboardKeyContext,
): DashboardInputResult {
  const page = context.bodyHeight - 2;
  if (key.upArrow || input === 'k') return scrollPane(state, -1, context);
  if (key.downArrow || input === 'j') return scrollPane(state, 1, context);
  if (key.pageUp) return scrollPane(state, -page, context);
  if (key.pageDown || input === ' ') return scrollPane(state, page, context);
  if (key.home || input === 'g') return scrollPane(state, 'home', context);
  if (key.end || input === 'G') return scrollPane(state, 'end', context);
  return result(state);
}

/**
 * Scrolls the overlay, or the detail pane when none is open. A live pane scrolled to its end (or sent there
 * with End) follows the stream again (top null); scrolling up from the end pauses it where it is.
 */
function scrollPane(
  state: DashboardInputState,
  delta: ScrollDelta,
  context: DashboardKeyContext,
): DashboardInputResult {
  const pane = context.pane;
  if (pane === null) return result(state);
  const visibleRows = context.bodyHeight - 1;
  let top: number | null;
  if (delta === 'end') top = pane.live ? null : Math.max(0, pane.length - visibleRows);
  else if (delta === 'home') top = 0;
  else if (delta > 0 && pane.atEnd) top = pane.live ? null : pane.top;
  else top = Math.min(Math.max(0, pane.top + delta), Math.max(0, pane.length - 1));
  return result(state.overlay !== null ? { ...state, overlayTop: top } : { ...state, detailTop: top });
}

/** d r x u m v l c on the selected item: its action if one applies (asking first where it says so). */
function itemKey(
  state: DashboardInputState,
  input: string,
  context: DashboardKeyContext,
): DashboardInputResult {
  const target = context.rows[currentIndex(state, context)] ?? null;
  const action = target
    ? buildItemActions(target, context.engineState).find((candidate) => candidate.key === input)
    : undefined;
  if (!action)
    return result(
      state,
      say(
        target
          ? `${input}: nothing to do for #${target.item.id} (${target.displayStatus}); ? lists the keys`
          : `${input}: no item selected`,
        'error',
      ),
    );
  const command = commandFor(action, context.engineState);
  if (action.confirm === null) return applyDashboardCommand(state, command);
  return result({ ...state, prompt: { text: action.confirm, onYes: command } });
}

function commandFor(action: ItemAction, engineState: EngineState): DashboardCommand {
  const effect = action.effect;
  if (effect.kind === 'event') return { kind: 'enqueue', event: effect.event, done: action.done };
  if (effect.kind === 'file') return openFile(effect.title, effect.path);
  if (effect.kind === 'transcript') return openTranscript(effect.sessionID, effect.path);
  const revision = engineState.revisions[effect.revisionID];
  const where = revision ? ` (${revision.headRef} at ${revision.headSHA.slice(0, 12)})` : '';
  return {
    kind: 'open-overlay',
    title: `diff of revision ${revisionName(revision ?? { id: effect.revisionID })}${where}`,
    source: { kind: 'diff', revisionID: effect.revisionID },
  };
}

/** A transcript is shown like `flotilla logs`: tool calls with their input, long tool output cut short. */
function openFile(what: string, path: string): DashboardCommand {
  return {
    kind: 'open-overlay',
    title: `${what} ${path}`,
    source: { kind: 'file', path, shortenTranscript: what === 'transcript' },
  };
}

/** A run's transcript, titled by its file when it has one here, else by its session. */
function openTranscript(sessionID: string, path: string | null): DashboardCommand {
  return {
    kind: 'open-overlay',
    title: `transcript ${path ?? `of session ${sessionID} (streamed by its worker)`}`,
    source: { kind: 'transcript', sessionID, path },
  };
}

/** x l d in the planner view: cancel the planner's run, open its transcript, or plan now. */
function plannerKey(
  state: DashboardInputState,
  input: 'x' | 'l' | 'd',
  engineState: EngineState,
): DashboardInputResult {
  if (input === 'd') return askToPlan(state, engineState);
  const planner = Object.values(engineState.agentRuns)
    .filter((run) => run.role === 'planner')
    .sort((a, b) => b.requestedAt - a.requestedAt)[0];
  if (!planner) return result(state, say('no planner run yet', 'error'));
  if (input === 'l') {
    if (planner.logFilePath || planner.status !== 'requested')
      return applyDashboardCommand(state, openTranscript(planner.sessionID, planner.logFilePath || null));
    return result(state, say('the planner run has no transcript', 'error'));
  }
  if (planner.status !== 'running' && planner.status !== 'requested')
    return result(state, say('the planner is not running', 'error'));
  return result({
    ...state,
    prompt: {
      text: 'Cancel the planner run?',
      onYes: {
        kind: 'enqueue',
        event: { type: 'userCancelledRun', sessionID: planner.sessionID },
        done: 'cancel of the planner requested',
      },
    },
  });
}

/** After the planner failed out of its attempts or was cancelled, nothing plans until a spec changes. */
function askToPlan(state: DashboardInputState, engineState: EngineState): DashboardInputResult {
  if (getActivePlannerRun(engineState) !== null)
    return result(state, say('the planner is already running', 'error'));
  const waiting = Object.values(engineState.waitingForInput).find((entry) => entry.role === 'planner');
  if (waiting !== undefined)
    return result(state, say(`the planner waits for answers on #${waiting.workItemID}`, 'error'));
  if (engineState.dispatchQueue.some((entry) => entry.command.type === 'requestPlannerRun'))
    return result(state, say('a planner run is already queued', 'error'));
  const unplanned = getSpecsRequiringPlanning(engineState).length;
  if (unplanned === 0)
    return result(state, say('every approved spec is planned at its current version', 'error'));
  return result({
    ...state,
    prompt: {
      text: `Run the planner now (${unplanned} approved spec${unplanned === 1 ? '' : 's'} not planned at the current version)?`,
      onYes: { kind: 'enqueue', event: { type: 'userRequestedPlannerRun' }, done: 'planner run requested' },
    },
  });
}
