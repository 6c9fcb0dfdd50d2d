import type { Command } from 'commander';
import { type Revision, revisionName } from '../../domain/index.ts';
import { runGit } from '../../process/run-command.ts';
import type { IntegrateRevisionResult, MergeMethod } from '../../providers/local/git/integrate-revision.ts';
import { messageOf } from '../../shared/message-of.ts';
import { CliError } from '../support/cli-error.ts';
import { type DeleteBranchOutcome, deleteRevisionBranch } from '../support/delete-revision-branch.ts';
import { describeMergeRefusal } from '../support/describe-merge-refusal.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import type { MergeQueueRunStep } from '../support/run-merge-queue.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** `flotilla merge --json` (documented in src/cli/README.md). */
export interface MergeSummary extends IntegrateRevisionResult {
  workItemID: string;
  revisionID: string;
  branch: string;
  defaultBranch: string;
  method: MergeMethod;
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
 * `flotilla merge <id> [--merge|--squash|--rebase] [--delete-branch] [--json]`: integrates the approved
 * revision of a work item into the default branch (see integrateRevision for how the user's checkout is
 * protected), then marks the revision merged and closes the item in one tracker transaction. The revision
 * branch is kept unless `--delete-branch`. An item already merged is reported as such (exit 0).
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
        return withCliContext(async (context) => {
          const tracker = await openLocalTracker(context);
          if (tracker === undefined) {
            if (options.deleteBranch) {
              throw new CliError(
                `with provider ${context.provider.name}, delete the branch on GitHub (or its auto-delete setting)`,
                {
                  exitCode: 2,
                },
              );
            }
            return (await loadContractTrackerCommands()).merge(context, id, {
              ...(method !== 'default' && { method }),
              ...(options.json !== undefined && { json: options.json }),
            });
          }
          const { repoRoot, config } = context;
          const item = requireWorkItem(tracker, id, 'merge');
          if (item.status === 'closed') {
            const merged = tracker.revisions
              .listWorkItemRevisions(id)
              .filter((candidate) => tracker.revisions.getRevisionState(candidate.id) === 'merged')
              .at(-1);
            if (merged === undefined) {
              throw new CliError(
                `#${id} is closed and none of its revisions was merged; reopen it to have it worked on again: \`flotilla work reopen ${id}\``,
                { exitCode: 1 },
              );
            }
            return reportAlreadyMerged(id, merged, options, {
              repoRoot,
              defaultBranch: config.defaultBranch,
            });
          }
          if (item.status !== 'approved') {
            const linked = item.linkedRevision === null ? null : revisionName({ id: item.linkedRevision });
            throw new CliError(describeMergeRefusal(item, linked), { exitCode: 1 });
          }
          const revision =
            item.linkedRevision === null ? null : tracker.revisions.getRevision(item.linkedRevision);
          if (revision === null) {
            throw new CliError(
              `#${id} is approved but has no open revision to merge; see \`flotilla work show ${id}\``,
              {
                exitCode: 1,
              },
            );
          }
          // Loaded on use: the local provider (SQLite, git plumbing) is not needed by `--help` or the hooks.
          const { LOCAL_REVISION_IDENTITY } = await import('../../providers/local/create-local-provider.ts');
          const { IntegrateRevisionError, integrateRevision } = await import(
            '../../providers/local/git/integrate-revision.ts'
          );
          const result = await integrateRevision({
            repoRoot,
            defaultBranch: config.defaultBranch,
            branchName: revision.headRef,
            headSHA: revision.headSHA,
            message:
              method === 'squash'
                ? `${revision.title} (#${id})\n\n${revision.body.trim() === '' ? '' : `${revision.body.trim()}\n\n`}Work item #${id}, revision ${revisionName(revision)}, squashed by flotilla merge.\n`
                : `Merge ${revision.headRef}: ${revision.title}\n\nWork item #${id}, revision ${revisionName(revision)}, merged by flotilla merge.\n`,
            fallbackIdentity: LOCAL_REVISION_IDENTITY,
            method,
          }).catch((error: unknown) => {
            // A refusal is the user's to fix (message + files), not a crash.
            if (error instanceof IntegrateRevisionError) {
              throw new CliError(error.message, { exitCode: 1, details: error.details });
            }
            throw error;
          });
          try {
            tracker.revisions.markRevisionMerged(revision.id, { closeWorkItem: true });
          } catch (error) {
            throw new CliError(
              `${config.defaultBranch} now contains revision ${revisionName(revision)} (${result.mergedSHA.slice(0, 12)}), but the tracker could not record it: ${messageOf(error)}; close the item with \`flotilla work transition ${id} closed\``,
              { exitCode: 1 },
            );
          }
          const deleted = options.deleteBranch
            ? await deleteRevisionBranch(repoRoot, revision.headRef, revision.headSHA)
            : null;
          const summary: MergeSummary = {
            workItemID: id,
            revisionID: revision.id,
            branch: revision.headRef,
            defaultBranch: config.defaultBranch,
            method,
            ...result,
            deletedBranch: deleted === 'deleted',
          };
          if (options.json) return writeJson(summary);
          const how =
            result.strategy === 'already-merged'
              ? `${config.defaultBranch} already contained it`
              : `${result.strategy} ${result.previousSHA.slice(0, 12)}..${result.mergedSHA.slice(0, 12)}`;
          process.stdout.write(
            `merged revision ${revisionName(revision)} (${revision.headRef}) into ${config.defaultBranch}: ${how}; closed #${id}\n` +
              (result.updatedWorktree === null ? '' : `updated the checkout at ${result.updatedWorktree}\n`) +
              (deleted === null ? '' : `${describeDeletion(revision.headRef, deleted)}\n`),
          );
        });
      }),
    );
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

function parseMethod(options: MergeOptions): MergeMethod {
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

/** Already merged (gh errors here; Flotilla's no-ops exit 0): say where it went, delete the branch if asked. */
async function reportAlreadyMerged(
  id: string,
  revision: Revision,
  options: MergeOptions,
  where: { repoRoot: string; defaultBranch: string },
): Promise<void> {
  const head = (
    await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${where.defaultBranch}`], {
      cwd: where.repoRoot,
      okExitCodes: [0, 1],
    })
  ).stdout.trim();
  const deleted = options.deleteBranch
    ? await deleteRevisionBranch(where.repoRoot, revision.headRef, revision.headSHA)
    : null;
  if (options.json) {
    const summary: MergeSummary = {
      workItemID: id,
      revisionID: revision.id,
      branch: revision.headRef,
      defaultBranch: where.defaultBranch,
      method: parseMethod(options),
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
