import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { BudgetReport, DailySpendReport, RunSummary, ServerStatus, WorkItem } from './api-client.ts';
import { Board } from './board.tsx';
import { BudgetLine } from './budget-line.tsx';
import { buildBoardColumns } from './build-board-columns.ts';
import { ConversationsPanel } from './conversation-list.tsx';
import { handleDashboardKey } from './handle-dashboard-key.ts';
import { HelpDialog } from './help-dialog.tsx';
import { type DetailBoxes, type DetailSection, ItemDetail } from './item-detail.tsx';
import { MergeQueuePanel } from './merge-queue-panel.tsx';
import { moveSelection } from './move-selection.ts';
import { PanelButtons, type PanelName, usePanels } from './panel-buttons.tsx';
import { ProposalsPanel } from './proposals-panel.tsx';
import { SpendChart } from './spend-chart.tsx';
import { useDashboardData } from './use-dashboard-data.ts';
import { useKeyState } from './use-key-state.ts';

/**
 * The dashboard: header (live state, budget), the board, the open item, the footer (what the last action
 * did). Every event on `/api/events` schedules one reload of the lists and of the open item; a dropped
 * stream reconnects with `Last-Event-ID`, and a reconnect reloads too.
 */
export function App() {
  const { keyState, selectedID, setSelectedID, openID, open, help, setHelp, confirm, setConfirm } =
    useKeyState();
  const [focus, setFocus] = useState<{ section: DetailSection; at: number } | null>(null);
  const { panels, setPanel, hide, proposals, setProposals } = usePanels(keyState);
  const onRuns = useCallback(
    (next: RunSummary[]) => {
      keyState.current.runs = next;
    },
    [keyState],
  );
  const data = useDashboardData({ onRuns, setProposals });
  const { items, runs, conversations, queue, loadError, version, reload } = data;
  const [message, setMessage] = useState('');
  const boxes = useRef<DetailBoxes>({ answer: null, comment: null, review: null });

  const columns = useMemo(() => buildBoardColumns(items, runs), [items, runs]);
  const columnsRef = useRef(columns);
  columnsRef.current = columns;

  useEffect(() => {
    if (selectedID === null || !items.some((item) => item.id === selectedID)) {
      setSelectedID(moveSelection(columns, null, null));
    }
  }, [columns, items, selectedID, setSelectedID]);

  const say = useCallback(
    (text: string) => {
      setMessage(text);
      void reload();
    },
    [reload],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) =>
      handleDashboardKey(event, {
        keys: keyState.current,
        columns: columnsRef.current,
        boxes: boxes.current,
        ...{ open, reload, say, setSelectedID, setHelp, setPanel, setConfirm, setFocus },
      });
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keyState, open, reload, say, setSelectedID, setHelp, setPanel, setConfirm]);

  const waiting = columns.find((column) => column.id === 'waiting')?.cards.length ?? 0;
  return (
    <div class={`app${openID === null ? '' : ' with-detail'}`}>
      <DashboardHeader
        {...data}
        waiting={waiting}
        counts={[conversations.length, proposals.length]}
        panels={panels}
        setPanel={setPanel}
      />
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

interface DashboardHeaderProps {
  items: WorkItem[];
  runs: RunSummary[];
  budget: BudgetReport | null;
  spend: DailySpendReport | null;
  status: ServerStatus | null;
  live: boolean;
  /** How many cards wait on a human. */
  waiting: number;
  /** How many conversations and proposals. */
  counts: readonly [number, number];
  panels: Record<PanelName, boolean>;
  setPanel(name: PanelName, shown: boolean): void;
}

/** The header: live state, agents at work, what waits, open items, budget, spend, quota and the panels. */
function DashboardHeader({
  items,
  runs,
  budget,
  spend,
  status,
  live,
  waiting,
  ...panels
}: DashboardHeaderProps) {
  const active = runs.filter((run) => run.status === 'running' || run.status === 'requested').length;
  return (
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
      <PanelButtons counts={panels.counts} shown={panels.panels} onToggle={panels.setPanel} />
      <span class="keys">? keys</span>
    </header>
  );
}
