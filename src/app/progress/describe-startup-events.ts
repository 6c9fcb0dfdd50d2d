import { describeChecksOutcome, type EngineEvent, revisionName } from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/engine-state.ts';
import type { SeenSnapshot } from './build-seen-snapshot.ts';
import { describeEvent } from './describe-event.ts';

/** An event of the start-up sync with the state after it, as the engine reported them. */
export interface StartupEvent {
  event: EngineEvent;
  state: EngineState;
}

/**
 * The progress lines for what a run's first sync found: the tracker's items, revisions and specs reach the
 * engine as new at every start, so against the last run's snapshot only what is new or changed since then
 * gets a line ("… since the last run"), and what is unchanged is counted in one line. Without a snapshot
 * (the first run) every event is described as it comes.
 */
export function describeStartupEvents(
  events: readonly StartupEvent[],
  previous: SeenSnapshot | null,
): string[] {
  const lines: string[] = [];
  const unchanged = { workItems: 0, revisions: 0, specs: 0 };
  for (const { event, state } of events) {
    const line = previous === null ? describeEvent(event, state) : describeAgainst(event, state, previous);
    if (line === 'unchanged-work-item') unchanged.workItems += 1;
    else if (line === 'unchanged-revision') unchanged.revisions += 1;
    else if (line === 'unchanged-spec') unchanged.specs += 1;
    else if (line !== null) lines.push(line);
  }
  const counts = [
    countOf(unchanged.workItems, 'work item'),
    countOf(unchanged.revisions, 'revision'),
    countOf(unchanged.specs, 'spec'),
  ].filter((part) => part !== null);
  if (counts.length > 0) lines.push(`unchanged since the last run: ${counts.join(', ')}`);
  return lines;
}

type Described = string | null | 'unchanged-work-item' | 'unchanged-revision' | 'unchanged-spec';

function describeAgainst(event: EngineEvent, state: EngineState, previous: SeenSnapshot): Described {
  if (event.type === 'workItemChanged' && event.oldStatus === null && event.workItem) {
    const before = previous.workItems[event.workItemID];
    if (before === undefined) return describeEvent(event, state);
    if (before === event.newStatus) return 'unchanged-work-item';
    return `work item #${event.workItemID} ${before} → ${event.newStatus} since the last run`;
  }
  if (event.type === 'revisionChanged' && event.oldPipelineStatus === null && event.revision) {
    const before = previous.revisions[event.revisionID];
    if (before === undefined) return describeEvent(event, state);
    const now = event.revision.pipeline?.status ?? 'none';
    if (before === now) return 'unchanged-revision';
    const said = now === 'none' ? 'unknown' : describeChecksOutcome(now);
    return `checks for revision ${revisionName(event.revision)} of #${event.workItemID}: ${said} since the last run`;
  }
  if (event.type === 'specChanged' && event.changeType === 'added') {
    const before = previous.specs[event.filePath];
    if (before === undefined) return describeEvent(event, state);
    if (before === `${event.frontmatterStatus} ${event.blobSHA}`) return 'unchanged-spec';
    return `spec ${event.filePath} modified since the last run (${event.frontmatterStatus})`;
  }
  return describeEvent(event, state);
}

function countOf(count: number, noun: string): string | null {
  return count === 0 ? null : `${count} ${noun}${count === 1 ? '' : 's'}`;
}
