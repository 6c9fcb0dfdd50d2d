import { type EngineEvent, PLANNER_QUESTIONS_LABEL } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/** Spec paths named in the title; the rest are counted. */
const TITLE_PATHS = 3;

/**
 * Where a planner's questions get an item to wait on: a `task:questions` work item, created in
 * `waiting-for-input` (never dispatched; the questions comment follows from `handle-questions`). A resumed
 * planner that asks again waits on the item it already has. Returns the item's id and its workItemChanged
 * (none for a kept item); a provider error is thrown (the run then fails and its session is discarded).
 */
export async function openPlannerQuestionsItem(
  run: { sessionID: string; specPaths: readonly string[]; specSHAs: Readonly<Record<string, string>> },
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter'>,
): Promise<{ workItemID: string; events: EngineEvent[] }> {
  const recorded = state.agentRuns[run.sessionID];
  const kept = recorded?.role === 'planner' ? recorded.questionsItemID : undefined;
  if (kept !== undefined && state.workItems[kept] !== undefined) return { workItemID: kept, events: [] };
  // What this run plans: the specs not planned at the version it was given (all of them, if none).
  const planning = run.specPaths.filter((path) => state.lastPlannedSHAs[path] !== run.specSHAs[path]);
  const paths = planning.length > 0 ? planning : [...run.specPaths];
  const created = await deps.workItemWriter.createWorkItem({
    title: `Planner questions: ${summarisePaths(paths)}`,
    body: buildQuestionsItemBody(paths),
    labels: [PLANNER_QUESTIONS_LABEL, 'status:waiting-for-input'],
    blockedBy: [],
  });
  return { workItemID: created.id, events: [buildWorkItemChanged(created, null)] };
}

function summarisePaths(paths: readonly string[]): string {
  if (paths.length <= TITLE_PATHS) return paths.join(', ');
  return `${paths.slice(0, TITLE_PATHS).join(', ')} and ${paths.length - TITLE_PATHS} more`;
}

function buildQuestionsItemBody(paths: readonly string[]): string {
  return [
    'The planner stopped with questions while planning these specs, and its session waits for your answers:',
    '',
    ...paths.map((path) => `- \`${path}\``),
    '',
    'The questions are in the comments. Answer them there (a reply, `flotilla answer`, or the dashboard): the',
    "same planner session then continues and creates the specs' work items. Flotilla closes this item when",
    'the planner is done. It is never dispatched to an implementor.',
    '',
    'Editing an approved spec instead drops these questions and plans again with the new version. Closing',
    'this item drops them without planning again (the dashboard key `d` plans on demand).',
  ].join('\n');
}
