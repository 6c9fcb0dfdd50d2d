import { buildProposalComment, type Proposal } from '../../../src/domain/index.ts';
import type { EngineStatePersistence, SqliteTracker } from '../../../src/storage/index.ts';
import { buildPlannerResult } from '../shared/builders/build-planner-result.ts';

/**
 * A plan proposal as `proposePlan` leaves it: its tracking item with the proposal comment, and its row in
 * the history; `tasks` are the titles of the items it creates. Returns its id.
 */
export function saveProposal(
  store: { tracker: SqliteTracker; history: EngineStatePersistence },
  fields: { title: string; tasks: string[]; status: Proposal['status']; createdAt: number },
): string {
  const { id } = store.tracker.workItems.createWorkItem({
    title: fields.title,
    body: '',
    labels: [],
    blockedBy: [],
  });
  const decided = fields.status !== 'pending';
  const proposal: Proposal = {
    id,
    kind: 'plan',
    status: fields.status,
    sessionID: `session-${id}`,
    specSHAs: { 'docs/specs/limits.md': 'a'.repeat(40) },
    basePlannedSHAs: {},
    result: buildPlannerResult({
      create: fields.tasks.map((title, index) => ({
        tempID: `T${index + 1}`,
        title,
        body: `Objective: ${title.toLowerCase()}.`,
        labels: ['task:implement'],
        blockedBy: index === 0 ? [] : ['T1'],
      })),
    }),
    revises: null,
    createdAt: fields.createdAt,
    decidedAt: decided ? fields.createdAt + 1 : null,
    decidedBy: decided ? 'Grace' : null,
    reason: null,
  };
  store.history.proposals.save(proposal);
  store.tracker.workItems.addComment(id, buildProposalComment(proposal), 'flotilla');
  return id;
}
