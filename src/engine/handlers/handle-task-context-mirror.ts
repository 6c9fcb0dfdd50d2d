import {
  answersEntryID,
  buildTaskContextComment,
  type EngineCommand,
  type EngineEvent,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { HandlerConfig } from './handler.ts';

/**
 * On a tracker that keeps task context on its items (`mirrorTaskContext`, issue #28 §1): the entries a run's
 * end just added (apply-task-context-update.ts) are posted on the item as comments, so another machine or a
 * fresh clone reads the same history. The engine's own comments are the only ones read back.
 */
export function handleTaskContextMirror(
  event: EngineEvent,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] {
  if (config.mirrorTaskContext !== true) return [];
  if (event.type === 'planApplied') {
    const ids = [...event.created.map((item) => item.workItemID), ...event.updatedIDs];
    return ids.flatMap((workItemID) =>
      (state.taskContext[workItemID] ?? [])
        .filter((entry) => entry.sessionID === event.sessionID && entry.type === 'plan_summary')
        .map(
          (entry): EngineCommand => ({
            type: 'commentOnWorkItem',
            workItemID,
            body: buildTaskContextComment(entry),
          }),
        ),
    );
  }
  if (event.type === 'questionsAnswered') {
    // The answers entry this event added (apply-task-context-update.ts), once.
    const waiting = state.waitingForInput[event.workItemID];
    if (waiting === undefined) return [];
    const id = answersEntryID(waiting.sessionID, waiting.sessionNumber);
    const entry = (state.taskContext[event.workItemID] ?? []).find((known) => known.id === id);
    return entry === undefined
      ? []
      : [{ type: 'commentOnWorkItem', workItemID: entry.workItemID, body: buildTaskContextComment(entry) }];
  }
  if (
    event.type !== 'implementorCompleted' &&
    event.type !== 'reviewerCompleted' &&
    event.type !== 'implementorFailed'
  )
    return [];
  return (state.taskContext[event.workItemID] ?? [])
    .filter((entry) => entry.sessionID === event.sessionID)
    .map((entry) => ({
      type: 'commentOnWorkItem',
      workItemID: entry.workItemID,
      body: buildTaskContextComment(entry),
    }));
}
