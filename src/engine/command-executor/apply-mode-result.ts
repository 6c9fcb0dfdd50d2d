import {
  type ApplyModeResult,
  buildInvestigationMarkdown,
  buildProposalComment,
  buildRefinedBody,
  buildRefinedLabels,
  type EngineEvent,
  type InvestigationReport,
  type ModeReport,
  type PlannerResult,
  PROPOSAL_LABEL,
  type Proposal,
  type ProposeModeResult,
  type RefinementReport,
  type WorkItem,
} from '../../domain/index.ts';
import { hashText } from '../../shared/hash-text.ts';
import { findModeReportSchemaError } from '../runtime-contract/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { applyPlannerResult, closeTrackingItem, findPlannerResultError } from './apply-planner-result.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { transitionWorkItem } from './transition-work-item.ts';

type Deps = Pick<CommandExecutorDeps, 'workItemWriter' | 'clock'>;

/** Marks the engine's report comment on an investigated item (never read as a decision or an answer). */
const REPORT_MARKER = '<!-- flotilla:investigation-report -->';
const MODE_APPLIED_MARKER = '<!-- flotilla:proposal-applied -->';

/** An investigation's fix items as the planner result that creates them (tempIDs resolved on creation). */
export function buildFixItemsResult(report: InvestigationReport): PlannerResult {
  return { role: 'planner', create: report.fixes, close: [], update: [] };
}

/** Why a mode report cannot be applied to the state as it is, or null. */
function findModeReportError(workItemID: string, report: ModeReport, state: EngineState): string | null {
  if (state.workItems[workItemID] === undefined) return `work item #${workItemID} is not known`;
  // A report edited by a human (`accept --edit`) is checked again, as the agent's was.
  const invalid = findModeReportSchemaError(report);
  if (invalid !== null) return invalid;
  return report.mode === 'investigate' ? findPlannerResultError(buildFixItemsResult(report), state) : null;
}

/**
 * `approval.investigations` / `approval.refinements: required` (issue #29): the report is checked as
 * `applyModeResult` would check it, posted on a `task:proposal` item of its own (created waiting-for-input,
 * never dispatched), and stored as a proposal (`proposalCreated`); the item it is about gets the same comment
 * and waits in needs-refinement. Decided like a plan's — `/accept`, `/reject <why>` on either item, or
 * `flotilla proposals`.
 */
export async function proposeModeResult(
  command: ProposeModeResult,
  state: EngineState,
  deps: Deps,
): Promise<EngineEvent[]> {
  const { report, workItemID } = command;
  const invalid = findModeReportError(workItemID, report, state);
  if (invalid !== null) throw new Error(`${report.mode} result rejected, nothing proposed: ${invalid}`);
  const subject = state.workItems[workItemID]!;
  const kind = report.mode === 'investigate' ? 'investigation' : 'refinement';
  const created = await deps.workItemWriter.createWorkItem({
    title: `${kind === 'investigation' ? 'Investigation' : 'Refinement'} proposal: #${subject.id} ${subject.title}`,
    body: [
      `The ${kind} of #${subject.id} waits for a human (\`approval.${kind}s: required\`): nothing is applied`,
      'until it is accepted. Its report is in the comments. Reply `/accept` to apply it, or `/reject <why>`',
      '(a plain comment here is feedback too: the mode runs again with it).',
      'It is never dispatched to an implementor.',
    ].join('\n'),
    labels: [PROPOSAL_LABEL, 'status:waiting-for-input'],
    blockedBy: [],
  });
  const now = deps.clock.now();
  const proposal: Proposal = {
    id: created.id,
    kind,
    status: 'pending',
    sessionID: command.sessionID,
    specSHAs: {},
    basePlannedSHAs: {},
    result: report.mode === 'investigate' ? buildFixItemsResult(report) : emptyResult(),
    revises: null,
    createdAt: now,
    decidedAt: null,
    decidedBy: null,
    reason: null,
    subjectID: subject.id,
    report,
  };
  const comment = buildProposalComment(proposal);
  await deps.workItemWriter.addComment(created.id, comment);
  // The item it is about shows it too, and a reply there decides it as on the proposal's own item.
  await deps.workItemWriter.addComment(
    subject.id,
    `The ${kind} finished; it waits for approval here or on #${created.id}.\n\n${comment}`,
  );
  const events: EngineEvent[] = [
    buildWorkItemChanged(created, null),
    { type: 'proposalCreated', proposal, at: now },
  ];
  if (subject.status !== 'needs-refinement')
    events.push(await transitionWorkItem(subject, 'needs-refinement', deps));
  return events;
}

/**
 * Applies an investigation (its fix items created, blockers resolved; the report posted on the bug's item,
 * which is closed; `modeResultApplied` makes the report a context entry of each fix item) or a refinement
 * (the item's body and labels rewritten, its `task:refine` or `task:refinement` label gone, back to pending,
 * the body it wrote recorded as refined). An accepted
 * proposal's item is closed afterwards, saying what was done.
 */
export async function applyModeResult(
  command: ApplyModeResult,
  state: EngineState,
  deps: Deps,
): Promise<EngineEvent[]> {
  const { report, workItemID } = command;
  const invalid = findModeReportError(workItemID, report, state);
  if (invalid !== null) throw new Error(`${report.mode} result rejected, nothing written: ${invalid}`);
  const subject = state.workItems[workItemID]!;
  const events =
    report.mode === 'investigate'
      ? await applyInvestigation(subject, report, state, deps)
      : await applyRefinement(subject, report, deps);
  const createdIDs = events.flatMap((event) =>
    event.type === 'workItemChanged' && event.oldStatus === null ? [event.workItemID] : [],
  );
  if (events.some((event) => event.type === 'commandFailed')) return events;
  events.push({
    type: 'modeResultApplied',
    workItemID,
    sessionID: command.sessionID,
    report,
    createdIDs,
    at: deps.clock.now(),
    // The body it wrote is never refined again on its own (state-store/apply-refinement-update.ts).
    ...(report.mode === 'refine' && { bodyHash: hashText(buildRefinedBody(report)) }),
  });
  if (command.proposalID !== undefined) {
    const outcome =
      report.mode === 'investigate'
        ? `it created ${createdIDs.map((id) => `#${id}`).join(', ')} and closed #${workItemID}`
        : `#${workItemID} was rewritten and sent back to pending`;
    const closed = await closeTrackingItem(
      command.proposalID,
      state,
      deps,
      `${MODE_APPLIED_MARKER}\nThe ${report.mode === 'investigate' ? 'investigation' : 'refinement'} was accepted and applied: ${outcome}. Closing this proposal.`,
    );
    if (closed !== null) events.push(closed);
  }
  return events;
}

async function applyInvestigation(
  subject: WorkItem,
  report: InvestigationReport,
  state: EngineState,
  deps: Deps,
): Promise<EngineEvent[]> {
  const events = await applyPlannerResult(
    { type: 'applyPlannerResult', result: buildFixItemsResult(report) },
    state,
    deps,
  );
  if (events.some((event) => event.type === 'commandFailed')) return events;
  const created = events.flatMap((event) =>
    event.type === 'workItemChanged' && event.oldStatus === null ? [`#${event.workItemID}`] : [],
  );
  await deps.workItemWriter.addComment(
    subject.id,
    `${REPORT_MARKER}\n${buildInvestigationMarkdown(report)}\n\nFix items: ${created.join(', ')}. Closing this report; the fix items carry the work.`,
  );
  if (subject.status !== 'closed') events.push(await transitionWorkItem(subject, 'closed', deps));
  return events;
}

async function applyRefinement(
  subject: WorkItem,
  report: RefinementReport,
  deps: Deps,
): Promise<EngineEvent[]> {
  const labels = buildRefinedLabels(report);
  // The kind label is replaced only when the new labels name one (providers keep it otherwise).
  const withKind = labels.some((label) => label.startsWith('task:')) ? labels : [...labels, 'task:implement'];
  const body = buildRefinedBody(report);
  // A clearer title (null: the item keeps its own) is written with the body and labels.
  const title = report.title !== null && report.title !== subject.title ? report.title : null;
  await deps.workItemWriter.updateWorkItem(subject.id, { title, body, labels: withKind });
  const { mode: _refine, ...refined } = subject;
  // `task:implement` replaced a `task:refinement` kind label too: the item is a task to implement now.
  return [
    await transitionWorkItem(refined, 'pending', deps, {
      kind: 'task',
      complexity: report.size,
      bodyHash: hashText(body),
      ...(title !== null && { title }),
    }),
  ];
}

function emptyResult(): PlannerResult {
  return { role: 'planner', create: [], close: [], update: [] };
}
