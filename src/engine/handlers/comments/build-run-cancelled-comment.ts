import type { AgentRole } from '../../../domain/index.ts';

/** The comment left on a work item parked as blocked because a user cancelled its run. */
export function buildRunCancelledComment(role: Exclude<AgentRole, 'planner'>, sessionID: string): string {
  return [
    `Flotilla: the ${role} run (session ${sessionID}) was cancelled by a user, so this item is now blocked ` +
      'instead of being retried.',
    '',
    `Dispatch the ${role} again or move the item back to pending when it should continue.`,
  ].join('\n');
}
