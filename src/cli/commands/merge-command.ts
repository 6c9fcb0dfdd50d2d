import type { Command } from 'commander';
import { type Revision, revisionName } from '../../domain/index.ts';
import type { DeleteBranchOutcome } from '../../process/delete-revision-branch.ts';
import type { ConfiguredProvider, MergeMethod } from '../../providers/provider-descriptor.ts';
import type { MergeRevisionResult } from '../../providers/types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { CliError } from '../support/cli-error.ts';
import { describeMergeRefusal } from '../support/describe-merge-refusal.ts';
import type { CliContext } from '../support/open-cli-context.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import type { MergeQueueRunStep } from '../support/run-merge-queue.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** `flotilla merge --json` (documented in src/cli/README.md). */
export interface MergeSummary {
  workItemID: string;
  revisionID: string;
  branch: string;
  defaultBranch: string;
  /** The method asked for (`--merge|--squash|--rebase`), else the provider's; `default`: fast-forward when possible. */
  method: MergeMethod | 'default';
  strategy: MergeRevisionResult['strategy'];
  /** The default branch's head before, where the provider merged in this repository (local). */
  previousSHA?: string;
  mergedSHA: string;
  /** The checkout the merge fast-forwarded, or null; absent where the merge happened elsewhere (GitHub). */
  updatedWorktree?: string | null;
  /** Whether `--delete-branch` removed the revision branch (false without the flag). */
  deletedBranch: boolean;
}

interface MergeOptions {
  json?: boolean;
  queue?: boolean;
  merge?: boolean;
  squash?: boolean;
  rebase?: boolean;
  deleteBranch?: boolean;
}

/**
 * `flotilla merge <id> [--merge|--squash|--rebase] [--delete-branch] [--json]`: merges the approved revision
 * of a work item into the default branch through the provider's `mergeRevision` (local: see
 * integrateRevision for how the user's checkout is protected; GitHub: the pull request's merge), which marks
 * the revision merged and closes the item. The revision branch is kept unless `--delete-branch` (the
 * provider's `deleteRevisionBranch`). An item already merged is reported as such (exit 0).
 */
export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description(
      "merge an approved work item's revision into the default branch and close the item (fast-forward when possible; never touches a dirty checkout)",
    )
    .argument('[id]', 'work item id, e.g. 12 or #12 (none with --queue)')
    .option(
      '--queue',
      'merge every approved item through the merge queue, one at a time: each brought onto the default branch and merged only with green checks there',
    )
    .option('--merge', 'always write a merge commit')
    .option('--squash', "one new commit with the revision's changes, titled after the item")
    .option('--rebase', "replay the revision's commit onto the default branch")
    .option('-d, --delete-branch', 'delete the revision branch (flotilla/<id>) after merging')
    .option('--json', 'print the result as JSON')
    .action(
      runCliAction('merge', (rawID: string | undefined, options: MergeOptions) => {
        if (options.queue) return mergeThroughQueue(rawID, options);
        if (rawID === undefined) {
          // The one-line usage error every command gives (src/cli/main.ts), naming --queue as the other way.
          throw new CliError(
            "missing required argument 'id' (or --queue to merge every approved item); see 'flotilla merge --help'",
            { exitCode: 2 },
          );
        }
        const id = parseWorkItemID(rawID);
        const method = parseMethod(options);
        return withCliContext((context) => mergeWorkItem(context, id, method, options));
      }),
    );
}

/** One item's merge, through the provider contract. */
async function mergeWorkItem(
  context: CliContext,
  id: string,
  method: MergeMethod | 'default',
  options: MergeOptions,
): Promise<void> {
  const provider = await context.provider.open(method === 'default' ? {} : { mergeMethod: method });
  const { defaultBranch } = context.config;
  if (options.deleteBranch && provider.revisionWriter.deleteRevisionBranch === undefined) {
    throw new CliError(
      `with provider ${provider.name}, delete the branch on ${context.provider.links?.site ?? 'the tracker'} (or its auto-delete setting)`,
      { exitCode: 2 },
    );
  }
  const item = await requireProviderItem(provider, id, 'merge');
  if (item.status === 'closed') return reportAlreadyMerged(provider, id, options, defaultBranch);
  const revision =
    item.linkedRevision === null ? null : await provider.revisionReader.getRevision(item.linkedRevision);
  if (item.status !== 'approved') {
    const linked =
      item.linkedRevision === null ? null : revisionName(revision ?? { id: item.linkedRevision });
    throw new CliError(describeMergeRefusal(item, linked), { exitCode: 1 });
  }
  if (revision === null) {
    throw new CliError(
      `#${id} is approved but has no open revision to merge; see \`flotilla work show ${id}\``,
      { exitCode: 1 },
    );
  }
  const merge = provider.revisionWriter.mergeRevision;
  if (merge === undefined) {
    throw new CliError(`the ${provider.name} provider cannot merge; merge on the tracker`, { exitCode: 2 });
  }
  const result = await merge(revision.id, { requestedBy: 'flotilla merge' }).catch((error: unknown) => {
    // A refusal is the user's to fix (message + files), not a crash.
    const details = (error as { details?: unknown } | null)?.details;
    throw new CliError(messageOf(error), {
      exitCode: 1,
      ...(Array.isArray(details) && { details: details.map(String) }),
    });
  });
  const deleted = options.deleteBranch ? await deleteBranch(provider, revision.id) : null;
  const summary: MergeSummary = {
    workItemID: id,
    revisionID: revision.id,
    branch: revision.headRef,
    defaultBranch,
    method: method === 'default' ? (provider.mergeMethod ?? 'default') : method,
    strategy: result.strategy,
    ...(result.previousSHA !== undefined && { previousSHA: result.previousSHA }),
    mergedSHA: result.mergedSHA,
    ...(result.updatedWorktree !== undefined && { updatedWorktree: result.updatedWorktree }),
    deletedBranch: deleted === 'deleted',
  };
  if (options.json) return writeJson(summary);
  process.stdout.write(describeMerge(summary, revision, context.provider.links?.site, deleted));
}

/** What `flotilla merge` prints: how the default branch received the head, the checkout, the branch. */
function describeMerge(
  summary: MergeSummary,
  revision: Revision,
  site: string | undefined,
  deleted: DeleteBranchOutcome | null,
): string {
  const { defaultBranch, strategy, mergedSHA, previousSHA, updatedWorktree } = summary;
  const how =
    strategy === 'already-merged'
      ? `${defaultBranch} already contained it`
      : previousSHA === undefined
        ? `${strategy} ${mergedSHA.slice(0, 12)}`
        : `${strategy} ${previousSHA.slice(0, 12)}..${mergedSHA.slice(0, 12)}`;
  // A revision with a web page (a pull request) is named as its tracker names it.
  const what = revision.url ? `pull request #${revision.id}` : `revision ${revisionName(revision)}`;
  // Merged elsewhere (on the tracker): the checkout here has yet to fetch it.
  const elsewhere = updatedWorktree === undefined;
  return (
    `merged ${what} (${revision.headRef}) into ${defaultBranch}${elsewhere && site ? ` on ${site}` : ''}: ${how}; closed #${summary.workItemID}\n` +
    (updatedWorktree == null ? '' : `updated the checkout at ${updatedWorktree}\n`) +
    (elsewhere ? '(run `git pull` to bring it into your checkout)\n' : '') +
    (deleted === null ? '' : `${describeDeletion(revision.headRef, deleted)}\n`)
  );
}

async function deleteBranch(provider: ConfiguredProvider, revisionID: string): Promise<DeleteBranchOutcome> {
  const remove = provider.revisionWriter.deleteRevisionBranch;
  if (remove === undefined) throw new Error(`the ${provider.name} provider cannot delete branches`);
  return remove(revisionID);
}

/** `flotilla merge --queue --json` (documented in src/cli/README.md). */
export interface MergeQueueSummary {
  steps: MergeQueueRunStep[];
  /** Items merged, in merge order. */
  merged: string[];
  /** Items sent back (a conflict, red checks, a change the rebase made), with the outcome. */
  sentBack: { workItemID: string; outcome: MergeQueueRunStep['outcome'] }[];
}

/** `flotilla merge --queue`: the merge queue in the foreground (runMergeQueue), for any provider. */
async function mergeThroughQueue(rawID: string | undefined, options: MergeOptions): Promise<void> {
  if (rawID !== undefined || parseMethod(options) !== 'default' || options.deleteBranch) {
    throw new CliError(
      '--queue takes no id, --merge, --squash, --rebase or --delete-branch: it fast-forwards every approved item in queue order',
      {
        exitCode: 2,
      },
    );
  }
  return withCliContext(async (context) => {
    const { isControlPlaneRunning } = await import('../support/is-control-plane-running.ts');
    if (context.config.merge.queue && isControlPlaneRunning(context.paths.stateDir)) {
      throw new CliError(
        '`flotilla run` is running with merge.queue on: it merges approved items itself (`flotilla queue` shows its queue)',
        {
          exitCode: 1,
        },
      );
    }
    const { runMergeQueue } = await import('../support/run-merge-queue.ts');
    const provider = await context.provider.open();
    const steps = await runMergeQueue(provider, {
      onStep: (step) => {
        if (!options.json) process.stdout.write(`${describeQueueStep(step)}\n`);
      },
    });
    const summary: MergeQueueSummary = {
      steps,
      merged: steps.filter((step) => step.outcome === 'merged').map((step) => step.workItemID),
      sentBack: steps
        .filter((step) => ['conflict', 'checks-failed', 'changed-approved'].includes(step.outcome))
        .map(({ workItemID, outcome }) => ({ workItemID, outcome })),
    };
    if (options.json) return writeJson(summary);
    process.stdout.write(
      `merge queue done: ${summary.merged.length} merged, ${summary.sentBack.length} sent back${steps.length === 0 ? ' (nothing approved could merge; see `flotilla queue`)' : ''}\n`,
    );
  });
}

function describeQueueStep(step: MergeQueueRunStep): string {
  const at = step.headSHA.slice(0, 12);
  switch (step.outcome) {
    case 'merged':
      return `#${step.workItemID}: merged (fast-forward to ${at}); closed`;
    case 'rebased':
      return `#${step.workItemID}: rebased onto the default branch (${at}); its checks ran there`;
    case 'changed-approved':
      return `#${step.workItemID}: the rebase changed what was approved (${at}); back to review`;
    case 'conflict':
      return `#${step.workItemID}: conflicts with the default branch; back to pending with the conflict in a comment`;
    case 'checks-failed':
      return `#${step.workItemID}: checks failed on ${at}; back to pending`;
    case 'enqueued':
      return `#${step.workItemID}: handed to the tracker's merge queue`;
    case 'up-to-date':
      return `#${step.workItemID}: already on the default branch`;
  }
}

function parseMethod(options: MergeOptions): MergeMethod | 'default' {
  const given = (['merge', 'squash', 'rebase'] as const).filter((method) => options[method] === true);
  if (given.length > 1) {
    throw new CliError(
      `give at most one of --merge, --squash or --rebase (got ${given.map((m) => `--${m}`).join(' ')})`,
      {
        exitCode: 2,
      },
    );
  }
  return given[0] ?? 'default';
}

/**
 * A closed item (gh errors here; Flotilla's no-ops exit 0): already merged — its history's revision is
 * merged — says where it went and deletes the branch if asked; otherwise it is to be reopened.
 */
async function reportAlreadyMerged(
  provider: ConfiguredProvider,
  id: string,
  options: MergeOptions,
  defaultBranch: string,
): Promise<void> {
  const revision = (await provider.history?.readItemHistory(id))?.revision ?? null;
  if (revision?.state !== 'merged') {
    throw new CliError(
      `#${id} is closed and none of its revisions was merged here (one merged on the tracker leaves nothing to do); to have it worked on again, reopen it: \`flotilla work reopen ${id}\``,
      { exitCode: 1 },
    );
  }
  const head = await provider.specReader.getDefaultBranchSHA();
  const deleted = options.deleteBranch ? await deleteBranch(provider, revision.id) : null;
  if (options.json) {
    const method = parseMethod(options);
    const summary: MergeSummary = {
      workItemID: id,
      revisionID: revision.id,
      branch: revision.headRef,
      defaultBranch,
      method: method === 'default' ? (provider.mergeMethod ?? 'default') : method,
      strategy: 'already-merged',
      previousSHA: head,
      mergedSHA: head,
      updatedWorktree: null,
      deletedBranch: deleted === 'deleted',
    };
    return writeJson(summary);
  }
  process.stdout.write(
    `#${id} is already merged (revision ${revisionName(revision)}, ${revision.headRef} at ${revision.headSHA.slice(0, 12)}); nothing to do\n` +
      (deleted === null ? '' : `${describeDeletion(revision.headRef, deleted)}\n`),
  );
}

function describeDeletion(branch: string, outcome: DeleteBranchOutcome): string {
  switch (outcome) {
    case 'deleted':
      return `deleted branch ${branch}`;
    case 'gone':
      return `branch ${branch} was already deleted`;
    case 'checked-out':
      return `kept branch ${branch}: it is checked out in a worktree`;
    case 'moved':
      return `kept branch ${branch}: it has commits the revision does not`;
  }
}
