import type { AgentRole } from '../../domain/index.ts';

/**
 * The variables a role's prompt template may use (docs/prompt-templates.md): one per section context
 * assembly builds. A section with nothing to show is ''.
 */
export const PROMPT_VARIABLES = {
  planner: ['specs', 'specDiff', 'workItems', 'planRevision', 'memories'],
  implementor: [
    'taskContext',
    'taskId',
    'taskTitle',
    'taskDescription',
    'taskStatus',
    'workItem',
    'revision',
    'changedFiles',
    'ciFailure',
    'priorReviews',
    'feedback',
    'modeRevision',
    'mergeConflict',
    'buildsOn',
    'memories',
  ],
  reviewer: [
    'taskContext',
    'taskId',
    'taskTitle',
    'taskDescription',
    'taskStatus',
    'workItem',
    'revision',
    'changedFiles',
    'priorReviews',
    'memories',
  ],
} as const satisfies Record<AgentRole, readonly string[]>;
