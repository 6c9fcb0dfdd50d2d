import { useCallback, useEffect, useState } from 'preact/hooks';
import {
  type AgentConversation,
  api,
  type BudgetReport,
  type DailySpendReport,
  type ProposalEntry,
  type QueueSummary,
  type RunSummary,
  type ServerStatus,
  type WorkItem,
} from './api-client.ts';
import { followEvents } from './follow-events.ts';
import { keepUnchanged } from './keep-unchanged.ts';

/** Live events come in bursts (an engine tick changes several things): one reload per this many ms. */
const RELOAD_DELAY_MS = 250;

interface DashboardDataOptions {
  /** Told the runs on every reload, before they render (the keys read them). */
  onRuns(runs: RunSummary[]): void;
  setProposals(proposals: ProposalEntry[]): void;
}

/**
 * What the dashboard shows, loaded from the API: once at start, then once per burst of events on
 * `/api/events` (a dropped stream reconnects with `Last-Event-ID`, and a reconnect reloads too). `version`
 * counts the reloads (the open item reloads with it).
 */
export function useDashboardData({ onRuns, setProposals }: DashboardDataOptions) {
  const [items, setItems] = useState<WorkItem[]>([]);
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [conversations, setConversations] = useState<AgentConversation[]>([]);
  const [budget, setBudget] = useState<BudgetReport | null>(null);
  const [spend, setSpend] = useState<DailySpendReport | null>(null);
  const [status, setStatus] = useState<ServerStatus | null>(null);
  const [queue, setQueue] = useState<QueueSummary | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const [version, setVersion] = useState(0);

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
      onRuns(nextRuns);
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
  }, [onRuns, setProposals]);

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

  return { items, runs, conversations, budget, spend, status, queue, loadError, live, version, reload };
}
