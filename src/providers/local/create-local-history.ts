import { isAbsolute, relative, resolve } from 'node:path';
import type { SqliteTracker } from '../../storage/index.ts';
import type { HistoryReader } from '../types.ts';
import { readChecksOutputTail } from './git/read-checks-output-tail.ts';

/**
 * The local tracker's history of an item (Provider.history): labels, comments, the open revision — else the
 * newest merged or closed one (a merged item links none, and its latest revision is still its history) —
 * with every review round, and any head's checks log, read only from `logsDir` (where the checks runner
 * writes): a log path recorded anywhere else stays unread.
 */
export function createLocalHistory(tracker: SqliteTracker, logsDir: string): HistoryReader {
  const { workItems, revisions } = tracker;
  return {
    async readItemHistory(id) {
      const item = workItems.getWorkItem(id);
      if (item === null) throw new Error(`work item #${id} does not exist`);
      const revision =
        item.linkedRevision === null
          ? (revisions.listWorkItemRevisions(id).at(-1) ?? null)
          : revisions.getRevision(item.linkedRevision);
      return {
        labels: workItems.getWorkItemLabels(id),
        comments: workItems.getWorkItemComments(id),
        revision:
          revision === null
            ? null
            : {
                ...revision,
                state: revisions.getRevisionState(revision.id),
                reviews: revisions.listReviews(revision.id),
              },
      };
    },
    async readChecksLog(revisionID) {
      const logPath = revisions.getRevision(revisionID)?.pipeline?.url ?? null;
      return logPath !== null && isInside(logsDir, logPath) ? readChecksOutputTail(logPath) : null;
    },
  };
}

function isInside(dir: string, path: string): boolean {
  if (!isAbsolute(path)) return false;
  const rel = relative(resolve(dir), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
