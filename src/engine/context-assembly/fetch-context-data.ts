import type { Revision, WorkItem } from '../../domain/index.ts';
import type { RevisionReader, WorkItemReader } from '../../providers/types.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { EngineState } from '../state-store/engine-state.ts';

/**
 * Runs one fetch of context assembly; a failure rejects with a message naming what could not be fetched,
 * so the run fails as a provisioning failure that says why.
 */
export async function fetchContextData<T>(what: string, fetch: () => Promise<T>): Promise<T> {
  try {
    return await fetch();
  } catch (error) {
    throw new Error(`Cannot fetch ${what}: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/** The store's copy when it has one (what the engine decided on), else the provider's. */
export async function resolveWorkItem(
  id: string,
  state: Pick<EngineState, 'workItems'>,
  reader: Pick<WorkItemReader, 'getWorkItem'>,
): Promise<WorkItem> {
  const stored = state.workItems[id];
  if (stored !== undefined) return stored;
  const fetched = await fetchContextData(`work item #${id}`, () => reader.getWorkItem(id));
  if (fetched === null) throw new Error(`Cannot fetch work item #${id}: it does not exist`);
  return fetched;
}

export async function resolveRevision(
  id: string,
  state: Pick<EngineState, 'revisions'>,
  reader: Pick<RevisionReader, 'getRevision'>,
): Promise<Revision> {
  const stored = state.revisions[id];
  if (stored !== undefined) return stored;
  const fetched = await fetchContextData(`revision #${id}`, () => reader.getRevision(id));
  if (fetched === null) throw new Error(`Cannot fetch revision #${id}: it does not exist`);
  return fetched;
}
