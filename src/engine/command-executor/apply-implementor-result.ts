import type { ApplyImplementorResult, EngineEvent, Revision, WorkItem } from '../../domain/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getStackBase } from '../state-store/selectors/index.ts';
import { buildRevisionChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { transitionWorkItem } from './transition-work-item.ts';

/**
 * The revision body's note of what it builds on (issue #30): the approved blockers whose revision head is
 * the patch's base or, with several, whose heads it merged. '' when it builds on the default branch.
 */
function buildStackNote(state: EngineState, item: WorkItem, base: string | undefined): string {
  if (base === undefined) return '';
  const stacked = getStackBase(state, item).stacked;
  // One blocker: its head is the base, else (its commit was missing) the work is on the default branch.
  if (stacked.length === 0 || (stacked.length === 1 && stacked[0]?.headSHA !== base)) return '';
  const names = stacked.map((blocker) => `#${blocker.workItemID} (revision #${blocker.revisionID})`);
  return `\n\nBuilds on ${names.join(', ')}: merge ${stacked.length === 1 ? 'it' : 'them'} first. Base: ${base}`;
}

/**
 * Where an implementor's result becomes a revision. `completed` → a revision from its patch on
 * `command.branchName` (body `Closes #<id>` + summary), a comment with the summary, the item to `review`
 * linked to the revision. A patch that is missing or cannot become a revision parks the item `blocked` with
 * a comment saying why (plus a commandFailed). `blocked` / `validation-failure` → a comment with the
 * summary, the item to `blocked` / `needs-refinement`.
 */
export async function applyImplementorResult(
  command: ApplyImplementorResult,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'revisionWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const { workItemWriter, revisionWriter, clock } = deps;
  const item = state.workItems[command.workItemID];
  if (!item) throw new Error(`work item #${command.workItemID} is not known`);
  const { result } = command;
  if (result.outcome === 'blocked' || result.outcome === 'validation-failure') {
    const label = result.outcome === 'blocked' ? 'reported a blocker' : 'could not validate its change';
    await workItemWriter.addComment(item.id, `Implementor ${label}:\n\n${result.summary}`);
    return [
      await transitionWorkItem(item, result.outcome === 'blocked' ? 'blocked' : 'needs-refinement', deps),
    ];
  }
  let revision: Revision;
  try {
    if (!result.patch || result.patch.trim() === '') throw new Error('the completed result carries no patch');
    revision = await revisionWriter.createFromPatch({
      workItemID: item.id,
      patch: result.patch,
      branchName: command.branchName,
      title: item.title,
      body: `Closes #${item.id}\n\n${result.summary}${buildStackNote(state, item, result.base)}`,
      ...(result.base !== undefined && { base: result.base }),
    });
  } catch (error) {
    // The change cannot become a revision (e.g. it no longer applies): park the item for a human.
    const message = `could not create a revision from the implementor's patch: ${messageOf(error)}`;
    await workItemWriter.addComment(item.id, `${message}\n\nImplementor summary:\n\n${result.summary}`);
    return [
      { type: 'commandFailed', command, error: message, at: clock.now() },
      await transitionWorkItem(item, 'blocked', deps),
    ];
  }
  await workItemWriter.addComment(
    item.id,
    `Implementor completed revision ${revision.id}:\n\n${result.summary}`,
  );
  return [
    buildRevisionChanged(revision, state.revisions[revision.id]),
    await transitionWorkItem(item, 'review', deps, { linkedRevision: revision.id }),
  ];
}
