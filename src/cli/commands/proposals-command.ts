import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { Proposal } from '../../domain/index.ts';
import {
  commentOnProposal,
  type DecisionTarget,
  decideProposal,
  requirePendingProposal,
  requireProposal,
} from '../support/decide-proposal.ts';
import { editProposalInEditor } from '../support/edit-proposal-in-editor.ts';
import { formatTable } from '../support/format-table.ts';
import type { CliContext } from '../support/open-cli-context.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/**
 * `flotilla proposals list|show|accept|reject|comment` (issue #29 §2): the plans `approval.plans: required`
 * keeps for a human, from `.flotilla/flotilla.db`. `accept`, `reject` and `comment` record the decision as a
 * comment on the proposal's item (as you), where the running control plane (or the next `flotilla run`)
 * reads it: an acceptance applies the plan, a rejection has the planner revise it with your `--comment`,
 * and a comment is feedback that does the same with its text.
 */
export function registerProposalsCommand(program: Command): void {
  const proposals = program
    .command('proposals')
    .description(
      'plans, investigations and refinements waiting for your approval (approval.*: required): list, show, accept, reject, comment',
    );
  proposals
    .command('list')
    .description('proposals, newest first: id, status, specs, what applying it does, who decided')
    .option('--json', 'print a JSON array of proposals')
    .action(
      runCliAction('proposals list', (options: { json?: boolean }) =>
        withCliContext(({ history }) => {
          const list = history.proposals.list();
          if (options.json) return writeJson(list);
          if (list.length === 0) {
            process.stdout.write(
              'No proposals. With `"approval": { "plans": "required" }` every plan waits here for you.\n',
            );
            return;
          }
          process.stdout.write(
            formatTable(
              ['ID', 'STATUS', 'SPECS', 'PLAN', 'CREATED', 'DECIDED BY', 'REASON'],
              list.map((proposal) => [
                `#${proposal.id}`,
                proposal.status,
                Object.keys(proposal.specSHAs).join(',') || '-',
                summarisePlan(proposal),
                new Date(proposal.createdAt).toISOString().slice(0, 16).replace('T', ' '),
                proposal.decidedBy ?? '-',
                proposal.reason ?? '-',
              ]),
            ),
          );
          if (list.some((proposal) => proposal.status === 'pending'))
            process.stdout.write(
              '`flotilla proposals show <id>`, then `accept <id>` or `reject <id> --comment …`.\n',
            );
        }),
      ),
    );
  proposals
    .command('show')
    .description('one proposal: the work items it creates, closes and updates')
    .argument('<id>', 'the proposal id (its item), e.g. 12 or #12')
    .option('--json', 'print the proposal as JSON')
    .action(
      runCliAction('proposals show', (rawID: string, options: { json?: boolean }) =>
        withCliContext(({ history }) => {
          const proposal = requireProposal(history.proposals.get(parseWorkItemID(rawID)), rawID);
          if (options.json) return writeJson(proposal);
          process.stdout.write(formatProposal(proposal));
        }),
      ),
    );
  proposals
    .command('accept')
    .description('apply a pending proposal (plan, investigation or refinement)')
    .argument('<id>', 'the proposal id (its item), e.g. 12 or #12')
    .option('--edit', 'change it in $EDITOR (YAML) first; the edited version is applied')
    .action(
      runCliAction('proposals accept', (rawID: string, options: { edit?: boolean }) =>
        withCliContext((context) =>
          decide(context, parseWorkItemID(rawID), 'accept', '', options.edit === true),
        ),
      ),
    );
  proposals
    .command('reject')
    .description('reject a pending proposal: the planner revises it with your comment')
    .argument('<id>', 'the proposal id (its item), e.g. 12 or #12')
    .option('-c, --comment <text>', 'why: the revising planner gets it in its prompt')
    .action(
      runCliAction('proposals reject', (rawID: string, options: { comment?: string }) =>
        withCliContext((context) => decide(context, parseWorkItemID(rawID), 'reject', options.comment ?? '')),
      ),
    );
  registerCommentCommand(proposals);
}

/** `flotilla proposals comment <id> <text…>`: feedback that revises the proposal, as `reject --comment` does. */
function registerCommentCommand(proposals: Command): void {
  proposals
    .command('comment')
    .description('comment on a pending proposal: it is revised with your feedback (nothing is applied)')
    .argument('<id>', 'the proposal id (its item), e.g. 12 or #12')
    .argument('<text...>', 'your feedback: the revising planner (or mode) gets it in its prompt')
    .action(
      runCliAction('proposals comment', (rawID: string, words: string[]) =>
        withCliContext(async (context) => {
          const id = parseWorkItemID(rawID);
          const proposal = requirePendingProposal(context.history, id);
          const outcome = await commentOnProposal(
            await openDecisionTarget(context),
            proposal,
            words.join(' '),
          );
          const who = outcome.author ?? 'a comment on its item';
          process.stdout.write(
            `commented on proposal #${id} (${who}); ${outcome.effect} (at once if flotilla run is running, else at its next start)\n`,
          );
        }),
      ),
    );
}

/** Where a decision goes: the local tracker as you, else a comment through the provider. */
async function openDecisionTarget(context: CliContext): Promise<DecisionTarget> {
  return {
    history: context.history,
    tracker: await openLocalTracker(context),
    addComment: async (itemID, body) =>
      (await context.provider.open()).workItemWriter.addComment(itemID, body),
    readAuthor: () => readHumanAuthor(context.repoRoot),
  };
}

async function decide(
  context: CliContext,
  id: string,
  decision: 'accept' | 'reject',
  reason: string,
  edit = false,
): Promise<void> {
  const proposal = requirePendingProposal(context.history, id);
  const edited = edit ? await editProposalInEditor(proposal, context.paths.stateDir, context.repoRoot) : null;
  const outcome = await decideProposal(
    await openDecisionTarget(context),
    proposal,
    decision,
    reason,
    edited?.edit,
  );
  await edited?.done();
  const who = outcome.author ?? 'a comment on its item';
  process.stdout.write(
    `${decision === 'accept' ? 'accepted' : 'rejected'} proposal #${id} (${who}); ${outcome.effect} (at once if flotilla run is running, else at its next start)\n`,
  );
}

function summarisePlan(proposal: Proposal): string {
  const { create, close, update } = proposal.result;
  return `+${create.length} -${close.length} ~${update.length}`;
}

/** The proposal as a reader checks it: what applying it creates, closes and updates. */
export function formatProposal(proposal: Proposal): string {
  const { result } = proposal;
  if (proposal.report != null) {
    return `${[
      `Proposal #${proposal.id} · ${proposal.kind} of #${proposal.subjectID ?? '?'} · ${proposal.status}` +
        (proposal.decidedBy === null ? '' : ` by ${proposal.decidedBy}`),
      ...(proposal.reason === null ? [] : [`Reason: ${proposal.reason || '(none given)'}`]),
      '',
      stringify(proposal.report, { lineWidth: 0 }).trimEnd(),
    ].join('\n')}\n`;
  }
  const lines = [
    `Proposal #${proposal.id} · ${proposal.kind} · ${proposal.status}` +
      (proposal.decidedBy === null ? '' : ` by ${proposal.decidedBy}`) +
      (proposal.revises === null ? '' : ` · revises #${proposal.revises}`),
    `Specs: ${Object.entries(proposal.specSHAs)
      .map(([path, sha]) => `${path} (${sha.slice(0, 7)})`)
      .join(', ')}`,
    ...(proposal.reason === null ? [] : [`Reason: ${proposal.reason || '(none given)'}`]),
    '',
    `Create (${result.create.length}):`,
    ...result.create.flatMap((create) => [
      `  [${create.tempID}] ${create.title}` +
        (create.labels.length > 0 ? `  labels: ${create.labels.join(', ')}` : '') +
        (create.blockedBy.length > 0 ? `  blocked by: ${create.blockedBy.join(', ')}` : ''),
      ...create.body.split('\n').map((line) => `      ${line}`),
    ]),
    `Close (${result.close.length}): ${result.close.map((id) => `#${id}`).join(', ') || '-'}`,
    `Update (${result.update.length}): ${result.update.map((update) => `#${update.workItemID}`).join(', ') || '-'}`,
  ];
  return `${lines.join('\n')}\n`;
}
