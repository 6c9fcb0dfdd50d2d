import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  type AgentConversation,
  api,
  type BudgetReport,
  type DailySpendReport,
  type EngineAction,
  type QueueSummary,
  type RunSummary,
  type ServerStatus,
  type WorkItem,
} from './api-client.ts';
import { Board } from './board.tsx';
import { BudgetLine } from './budget-line.tsx';
import { buildBoardColumns } from './build-board-columns.ts';
import { ConversationsPanel } from './conversation-list.tsx';
import { followEvents } from './follow-events.ts';
import { HelpDialog } from './help-dialog.tsx';
import { type DetailBoxes, type DetailSection, ItemDetail } from './item-detail.tsx';
import { keepUnchanged } from './keep-unchanged.ts';
import { MergeQueuePanel } from './merge-queue-panel.tsx';
import { moveSelection, type SelectionMove } from './move-selection.ts';
import { PanelButtons, type PanelName, usePanels } from './panel-buttons.tsx';
import { ProposalsPanel } from './proposals-panel.tsx';
import { SpendChart } from './spend-chart.tsx';

/** Live events come in bursts (an engine tick changes several things): one reload per this many ms. */
const RELOAD_DELAY_MS = 250;

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

/**
 * The dashboard: header (live state, budget), the board, the open item, the footer (what the last action
 * did). Every event on `/api/events` schedules one reload of the lists and of the open item; a dropped
 * stream reconnects with `Last-Event-ID`, and a reconnect reloads too.
 */
export function App() {
  const [items, setItems] = useState<WorkItem[]>([]);
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [conversations, setConversations] = useState<AgentConversation[]>([]);
  const [budget, setBudget] = useState<BudgetReport | null>(null);
  const [spend, setSpend] = useState<DailySpendReport | null>(null);
  const [status, setStatus] = useState<ServerStatus | null>(null);
  const [queue, setQueue] = useState<QueueSummary | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  // What keys act on is also held in refs, set with the state: a key pressed before the next render (the
  // browser delivers them as fast as they come) sees the previous key's result, as in the terminal dashboard.
  const [selectedID, setSelectedState] = useState<string | null>(null);
  const [openID, setOpenState] = useState<string | null>(() => readHash());
  const [help, setHelpState] = useState(false);
  const [focus, setFocus] = useState<{ section: DetailSection; at: number } | null>(null);
  // An action that asks first (as the terminal dashboard's): `y` does it, `n` or Esc drops it.
  const [confirm, setConfirmState] = useState<{ question: string; run(): void } | null>(null);
  const keyState = useRef({ selectedID, openID, help, ...readPanels(), confirm, runs: [] as RunSummary[] });
  const setConfirm = useCallback((next: { question: string; run(): void } | null) => {
    keyState.current.confirm = next;
    setConfirmState(next);
  }, []);
  const setSelectedID = useCallback((id: string | null) => {
    keyState.current.selectedID = id;
    setSelectedState(id);
  }, []);
  const setHelp = useCallback((shown: boolean) => {
    keyState.current.help = shown;
    setHelpState(shown);
  }, []);
  const { panels, setPanel, hide, proposals, setProposals } = usePanels(keyState);
  const [message, setMessage] = useState('');
  const [version, setVersion] = useState(0);
  const boxes = useRef<DetailBoxes>({ answer: null, comment: null, review: null });

  const reload = useCallback(async () => {
    try {
      const plans = api.pendingProposals();
      const [nextItems, nextRuns, nextConversations, nextBudget, nextSpend, nextStatus, nextQueue] =
        await Promise.all([
          api.listItems(),
          api.listRuns(),
          api.conversations(),
          api.budget(),
          api.budgetDays(),
          api.status(),
          api.mergeQueue(),
        ]);
      setItems((previous) => keepUnchanged(previous, nextItems));
      keyState.current.runs = nextRuns;
      setRuns(nextRuns);
      setConversations(nextConversations);
      setBudget(nextBudget);
      setSpend(nextSpend);
      setStatus(nextStatus);
      setQueue(nextQueue);
      setProposals((await plans).filter((proposal) => proposal.decision == null));
      setLoadError(null);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : String(error));
    }
    setVersion((value) => value + 1);
  }, [setProposals]);

  useEffect(() => {
    void reload();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void reload();
      }, RELOAD_DELAY_MS);
    };
    const follower = followEvents('/api/events', {
      onOpen: () => {
        setLive(true);
        schedule();
      },
      onDrop: () => setLive(false),
      onEvent: schedule,
    });
    return () => {
      follower.close();
      if (timer !== null) clearTimeout(timer);
    };
  }, [reload]);

  const columns = useMemo(() => buildBoardColumns(items, runs), [items, runs]);
  const columnsRef = useRef(columns);
  columnsRef.current = columns;

  useEffect(() => {
    if (selectedID === null || !items.some((item) => item.id === selectedID)) {
      setSelectedID(moveSelection(columns, null, null));
    }
  }, [columns, items, selectedID, setSelectedID]);

  const open = useCallback((id: string | null) => {
    keyState.current.openID = id;
    setOpenState(id);
    history.replaceState(null, '', id === null ? '#' : `#item/${id}`);
  }, []);

  const say = useCallback(
    (text: string) => {
      setMessage(text);
      void reload();
    },
    [reload],
  );

  useEffect(() => {
    const report = (what: string, id: string, run: () => Promise<unknown>) =>
      run().then(
        () => say(`${what} #${id}: done`),
        (error: unknown) => say(`${what} #${id}: ${error instanceof Error ? error.message : String(error)}`),
      );
    const engine = (id: string, action: EngineAction) => () =>
      report(action, id, () => api.engineAction(id, action));
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement;
      if (typing) {
        if (event.key === 'Escape') (event.target as HTMLElement).blur();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const keys = keyState.current;
      if (keys.confirm !== null) {
        event.preventDefault();
        if (event.key === 'y') keys.confirm.run();
        if (event.key === 'y' || event.key === 'n' || event.key === 'Escape') setConfirm(null);
        return;
      }
      const id = keys.openID ?? keys.selectedID;
      const ask = (question: string, run: () => void) => setConfirm({ question: `${question} y / n`, run });
      const show = (section: DetailSection) => {
        if (id === null) return;
        if (keys.openID !== id) open(id);
        setFocus({ section, at: Date.now() });
      };
      const move = MOVES[event.key];
      if (move !== undefined) {
        event.preventDefault();
        setSelectedID(moveSelection(columnsRef.current, keys.selectedID, move));
      } else if (event.key === 'Enter' && keys.selectedID !== null) {
        open(keys.selectedID);
      } else if (event.key === 'Escape') {
        if (keys.help) setHelp(false);
        else if (keys.talk || keys.plans) setPanel(keys.talk ? 'talk' : 'plans', false);
        else open(null);
      } else if (event.key === 't' || event.key === 'p') {
        setPanel(PANEL_KEYS[event.key], !keys[PANEL_KEYS[event.key]]);
      } else if (event.key === '?') {
        setHelp(!keys.help);
      } else if (event.key === 'f') {
        void reload();
      } else if (id === null) {
        // The rest act on an item.
      } else if (event.key === 'd') {
        // As the terminal dashboard's d: a failed agent is retried (asks first), anything else dispatched.
        if (keys.runs.find((run) => run.workItemID === id)?.status === 'failed') {
          ask(`retry #${id}'s failed agent?`, engine(id, 'retry'));
        } else {
          void report('dispatch', id, () => api.dispatch(id));
        }
      } else if (event.key === 'x') {
        ask(`cancel #${id}'s running agent (the item is parked as blocked)?`, engine(id, 'cancel'));
      } else if (event.key === 'u') {
        void engine(id, 'unblock')();
      } else if (event.key === 'm') {
        ask(`merge #${id} and close it?`, engine(id, 'merge'));
      } else if (event.key === 'A') {
        ask(
          `approve #${id}'s revision?`,
          () => void report('approve', id, () => api.review(id, 'approve', '')),
        );
      } else if (event.key === 'v') {
        show('diff');
      } else if (event.key === 'l') {
        show('transcript');
      } else if (event.key === 'c') {
        show('checks');
      } else if (keys.openID !== null) {
        const box =
          event.key === 'a'
            ? boxes.current.answer
            : event.key === 'R'
              ? boxes.current.review
              : event.key === 'C'
                ? boxes.current.comment
                : null;
        if (box !== null) {
          event.preventDefault();
          box.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, reload, say, setSelectedID, setHelp, setPanel, setConfirm]);

  const active = runs.filter((run) => run.status === 'running' || run.status === 'requested').length;
  const waiting = columns.find((column) => column.id === 'waiting')?.cards.length ?? 0;
  return (
    <div class={`app${openID === null ? '' : ' with-detail'}`}>
      <header>
        <strong>flotilla</strong>
        <span class={live ? 'live' : 'offline'} data-testid="live">
          {live ? '● live' : '○ reconnecting'}
        </span>
        <span>agents {active}</span>
        <span class={waiting > 0 ? 'waiting' : ''}>{waiting} waiting on you</span>
        <span>{items.filter((item) => item.status !== 'closed').length} open</span>
        <BudgetLine budget={budget} />
        <SpendChart report={spend} />
        {status?.quota != null && (
          <span class={`quota quota-${status.quota.tone}`} data-testid="quota">
            {status.quota.text}
          </span>
        )}
        <PanelButtons counts={[conversations.length, proposals.length]} shown={panels} onToggle={setPanel} />
        <span class="keys">? keys</span>
      </header>
      {loadError !== null && <p class="error banner">cannot load the board: {loadError}</p>}
      <MergeQueuePanel queue={queue} onOpen={open} />
      <div class="panes">
        <Board columns={columns} selectedID={selectedID} onSelect={setSelectedID} onOpen={open} />
        {openID !== null && (
          <ItemDetail
            id={openID}
            version={version}
            boxes={boxes.current}
            focus={focus}
            onClose={() => open(null)}
            onDone={say}
          />
        )}
      </div>
      {panels.talk && <ConversationsPanel conversations={conversations} onClose={hide.talk} />}
      {panels.plans && <ProposalsPanel proposals={proposals} onClose={hide.plans} onDone={say} />}
      <footer data-testid="footer">
        {confirm === null ? message : <strong class="confirm">{confirm.question}</strong>}
      </footer>
      {help && <HelpDialog />}
    </div>
  );
}

/** The panel the URL opens (`#conversations`, `#proposals`). */
function readPanels(): Record<PanelName, boolean> {
  return { talk: location.hash === '#conversations', plans: location.hash === '#proposals' };
}

function readHash(): string | null {
  return /^#item\/(\d+)$/.exec(location.hash)?.[1] ?? null;
}
