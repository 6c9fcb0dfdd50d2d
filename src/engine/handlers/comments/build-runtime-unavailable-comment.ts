import type { AgentRole } from '../../../domain/index.ts';

/** The comment left on a work item parked as blocked because its run's runtime was refused at dispatch. */
export function buildRuntimeUnavailableComment(input: {
  role: Exclude<AgentRole, 'planner'>;
  workItemID: string;
  error: string;
}): string {
  return [
    `Flotilla: the ${input.role} run was not started: ${input.error}`,
    '',
    'This item is blocked; no retry attempt was used. Once the runtime is available (or the `runtime:` label ' +
      `is fixed), move it back: \`flotilla work transition ${input.workItemID} ${input.role === 'implementor' ? 'ready' : 'review'}\`.`,
  ].join('\n');
}
