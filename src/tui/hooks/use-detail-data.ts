import { useEffect, useRef, useState } from 'react';
import type { ReviewHistory, RevisionFile } from '../../domain/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { DashboardDeps } from '../dashboard-deps.ts';
import type { ItemAgentNotes } from '../view-model/build-agent-note-lines.ts';
import type { Fetched } from '../view-model/build-detail-content.ts';
import type { WorkItemRow } from '../view-model/build-work-item-sections.ts';

export interface DetailData {
  body: Fetched<string>;
  files: Fetched<RevisionFile[]> | null;
  reviews: Fetched<ReviewHistory> | null;
  checksLog: Fetched<string[]> | null;
  notes: Fetched<ItemAgentNotes> | null;
}

const CHECKS_LOG_TAIL = 30;
const CACHE_LIMIT = 200;

/**
 * Fetches what the detail pane shows on demand, for the selected item only, and caches it by what it
 * depends on (the body by item and status, files and reviews by revision head, the checks log by its path
 * and head, the agents' decisions and questions by the item's latest run and its status), so moving
 * through the list does not refetch and a new push, review or finished run is picked up.
 */
export function useDetailData(deps: DashboardDeps, row: WorkItemRow | null): DetailData | null {
  const cache = useRef(new Map<string, Fetched<unknown>>());
  const [, setVersion] = useState(0);

  const revision =
    row?.item.linkedRevision == null ? undefined : deps.engine.getState().revisions[row.item.linkedRevision];
  const keys =
    row === null
      ? null
      : {
          body: `body:${row.item.id}:${row.item.status}`,
          files: revision ? `files:${revision.id}:${revision.headSHA}` : null,
          reviews: revision
            ? `reviews:${revision.id}:${revision.headSHA}:${revision.reviewID}:${row.item.status}`
            : null,
          checksLog:
            revision?.pipeline?.status === 'failure' && revision.pipeline.url
              ? `log:${revision.pipeline.url}:${revision.headSHA}`
              : null,
          notes: deps.loadAgentNotes
            ? `notes:${row.item.id}:${row.latestRun?.sessionID ?? ''}:${row.latestRun?.status ?? ''}`
            : null,
        };

  useEffect(() => {
    if (row === null || keys === null) return;
    const load = <T>(key: string | null, fetch: () => Promise<T>) => {
      if (key === null || cache.current.has(key)) return;
      if (cache.current.size > CACHE_LIMIT) cache.current.clear();
      cache.current.set(key, { status: 'loading' });
      fetch()
        .then(
          (value) => cache.current.set(key, { status: 'ok', value }),
          (error: unknown) =>
            cache.current.set(key, {
              status: 'error',
              message: messageOf(error),
            }),
        )
        .finally(() => setVersion((value) => value + 1));
    };
    load(keys.body, () => deps.engine.getWorkItemBody(row.item.id));
    const loadAgentNotes = deps.loadAgentNotes;
    if (loadAgentNotes) load(keys.notes, () => loadAgentNotes(row.item.id));
    if (revision) {
      load(keys.files, () => deps.engine.getRevisionFiles(revision.id));
      load(keys.reviews, () => deps.getReviewHistory(revision.id));
      const logPath = revision.pipeline?.url;
      if (logPath) {
        load(keys.checksLog, async () => {
          const lines = (await deps.readTextFile(logPath)).trimEnd().split('\n');
          return lines.slice(-CHECKS_LOG_TAIL);
        });
      }
    }
  });

  if (row === null || keys === null) return null;
  const get = <T>(key: string | null): Fetched<T> | null =>
    key === null ? null : ((cache.current.get(key) as Fetched<T> | undefined) ?? { status: 'loading' });
  return {
    body: get<string>(keys.body) ?? { status: 'loading' },
    files: get<RevisionFile[]>(keys.files),
    reviews: get<ReviewHistory>(keys.reviews),
    checksLog: get<string[]>(keys.checksLog),
    notes: get<ItemAgentNotes>(keys.notes),
  };
}
