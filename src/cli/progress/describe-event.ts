import type { EngineEvent } from '../../domain/index.ts';

/** One readable progress line for a meaningful event (spec planned, item created, run started/finished…); null for the rest. */
export function describeEvent(event: EngineEvent): string | null {
  switch (event.type) {
    case 'specChanged':
      return `spec ${event.filePath} ${event.changeType} (${event.frontmatterStatus})`;
    case 'workItemChanged':
      if (!event.workItem) return null;
      return event.oldStatus === null
        ? `work item #${event.workItemID} "${event.workItem.title}" created (${event.newStatus})`
        : `work item #${event.workItemID} ${event.oldStatus} → ${event.newStatus}`;
    case 'plannerStarted':
    case 'implementorStarted':
    case 'reviewerStarted':
      return `${event.type.replace('Started', '')} started (session ${event.sessionID.slice(0, 8)})`;
    case 'implementorCompleted':
      return `implementor finished #${event.workItemID}: ${event.result.outcome}`;
    case 'reviewerCompleted':
      return `reviewer finished #${event.workItemID}: ${event.result.review.verdict} — ${event.result.review.summary}`;
    case 'plannerCompleted':
      return `planner finished: ${event.result.create.length} item(s) to create`;
    case 'plannerFailed':
    case 'implementorFailed':
    case 'reviewerFailed':
      return `${event.type.replace('Failed', '')} failed (${event.reason}): ${event.error}`;
    case 'revisionChanged':
      return event.revision && event.oldPipelineStatus === null
        ? `revision ${event.revisionID} created on ${event.revision.headRef} for #${event.workItemID}`
        : null;
    case 'commandFailed':
      return `command ${event.command.type} failed: ${event.error}`;
    case 'errorRecorded':
      return `error (${event.source}): ${event.message}`;
    default:
      return null;
  }
}
