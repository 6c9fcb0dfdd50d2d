import { isDependencyTerminal, type WorkItemStatus } from '../../domain/index.ts';
import type { Provider } from '../../providers/types.ts';
import { CliError } from './cli-error.ts';
import { refuseUndispatchableKind } from './refuse-undispatchable-kind.ts';
import { requireProviderItem } from './require-provider-item.ts';

/** The statuses a human may send to an implementor; the rest are busy, done, or under review. */
const DISPATCHABLE: readonly WorkItemStatus[] = ['pending', 'blocked', 'needs-refinement'];

/** What a dispatch did: `from` null when the item was already `ready` (a no-op). */
export interface DispatchOutcome {
  from: WorkItemStatus | null;
  openBlockers: string[];
}

/**
 * A human asking for an implementor, through the provider contract: moves the item to `ready`; a running
 * engine picks it up through its poller. Shared by `flotilla work dispatch` and the HTTP API (src/api/).
 * Refusals are CliErrors with exit 1 (the tracker's state does not allow it).
 */
export async function dispatchWorkItem(
  provider: Pick<Provider, 'workItemReader' | 'workItemWriter' | 'revisionReader' | 'localAdmin'>,
  id: string,
): Promise<DispatchOutcome> {
  const item = await requireProviderItem(provider, id);
  refuseUndispatchableKind(item);
  if (item.status === 'ready') return { from: null, openBlockers: [] };
  if (!DISPATCHABLE.includes(item.status)) {
    throw new CliError(
      `#${id} is ${item.status}; only pending, blocked or needs-refinement items can be dispatched` +
        (item.status === 'closed' ? ` (reopen it first: \`flotilla work reopen ${id}\`)` : ''),
      { exitCode: 1 },
    );
  }
  const openBlockers: string[] = [];
  for (const blockerID of item.blockedBy) {
    const blocker = await provider.workItemReader.getWorkItem(blockerID);
    if (blocker !== null && !isDependencyTerminal(blocker.status)) openBlockers.push(blockerID);
  }
  await provider.workItemWriter.transitionStatus(id, 'ready');
  return { from: item.status, openBlockers };
}
