import { isDeepStrictEqual } from 'node:util';
import type { Revision, WorkItem } from '../domain/index.ts';
import type { Provider } from '../providers/types.ts';
import type { EventHub } from './create-event-hub.ts';

export interface ProviderItemsWatch {
  /** The open work items and revisions as last read (empty until the first read answered). */
  items(): WorkItem[];
  revisions(): Revision[];
  /** Reads the provider once now and publishes what changed; rejects when the provider does. */
  refresh(): Promise<void>;
  stop(): void;
}

/**
 * The read model of `flotilla serve` on a provider without a local tracker (GitHub): the open work items and
 * revisions, read with the provider's own listing calls (the engine's pollers' reads, conditional on GitHub)
 * every `intervalMs` × the provider's `pollIntervalFactor` (its quota's), publishing `work-item.changed` for
 * each item that changed, so the web dashboard follows. A failed read keeps the last answer.
 */
export function watchProviderItems(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader' | 'pollIntervalFactor'>,
  events: EventHub,
  intervalMs: number,
  onError: (error: unknown) => void,
): ProviderItemsWatch {
  let items = new Map<string, WorkItem>();
  let revisions: Revision[] = [];
  let first = true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const refresh = async () => {
    const [listed, open] = await Promise.all([
      provider.workItemReader.listWorkItems(),
      provider.revisionReader.listRevisions(),
    ]);
    const next = new Map(listed.map((item) => [item.id, item]));
    if (!first) {
      for (const [id, item] of next) {
        if (!isDeepStrictEqual(items.get(id), item)) {
          events.publish('work-item.changed', { workItemID: id, status: item.status });
        }
      }
      for (const id of items.keys()) {
        if (!next.has(id)) events.publish('work-item.changed', { workItemID: id, status: null });
      }
    }
    first = false;
    items = next;
    revisions = open;
  };

  const schedule = () => {
    if (stopped) return;
    const factor = Math.max(1, provider.pollIntervalFactor?.() ?? 1);
    timer = setTimeout(() => {
      refresh().catch(onError).finally(schedule);
    }, intervalMs * factor);
    timer.unref();
  };
  schedule();

  return {
    items: () => [...items.values()],
    revisions: () => revisions,
    refresh,
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
