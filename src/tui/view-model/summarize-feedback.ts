import type { EngineCommand, EngineEvent } from '../../domain/index.ts';

/**
 * The footer message an engine event deserves, if any: refusals and failures (so a key press that the
 * engine's guards or policy turned down says why), and runs that ended badly. Routine progress is left to
 * the list itself.
 */
export function summarizeFeedback(event: EngineEvent): { text: string; tone: 'info' | 'error' } | null {
  switch (event.type) {
    case 'commandRejected':
      if (event.kind === 'duplicate') return null;
      return { text: `${describeCommand(event.command)} refused: ${event.reason}`, tone: 'error' };
    case 'commandFailed':
      return { text: `${describeCommand(event.command)} failed: ${firstLine(event.error)}`, tone: 'error' };
    case 'errorRecorded':
      return { text: `${event.source}: ${firstLine(event.message)}`, tone: 'error' };
    case 'implementorFailed':
    case 'reviewerFailed':
      if (event.reason === 'cancelled')
        return { text: `#${event.workItemID}: ${roleOf(event.type)} cancelled`, tone: 'info' };
      return {
        text: `#${event.workItemID}: ${roleOf(event.type)} ${event.reason === 'timeout' ? 'timed out' : 'failed'}: ${firstLine(event.error)}`,
        tone: 'error',
      };
    case 'plannerFailed':
      if (event.reason === 'cancelled') return { text: 'planner cancelled', tone: 'info' };
      return { text: `planner failed: ${firstLine(event.error)}`, tone: 'error' };
    default:
      return null;
  }
}

function roleOf(type: 'implementorFailed' | 'reviewerFailed'): string {
  return type === 'implementorFailed' ? 'implementor' : 'reviewer';
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function describeCommand(command: EngineCommand): string {
  const item = 'workItemID' in command ? ` #${command.workItemID}` : '';
  return `${command.type}${item}`;
}
