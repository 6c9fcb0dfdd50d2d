import type { Command } from 'commander';
import { LOCAL_REVISION_IDENTITY } from '../../providers/local/create-local-provider.ts';
import {
  IntegrateRevisionError,
  type IntegrateRevisionResult,
  integrateRevision,
} from '../../providers/local/git/integrate-revision.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** `flotilla merge --json` (documented in src/cli/README.md). */
export interface MergeSummary extends IntegrateRevisionResult {
  workItemID: string;
  revisionID: string;
  branch: string;
  defaultBranch: string;
}

/**
 * `flotilla merge <id> [--json]`: integrates the approved revision of a work item into the default branch
 * (see integrateRevision for how the user's checkout is protected), then marks the revision merged and
 * closes the item in one tracker transaction. The revision branch is kept.
 */
export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description(
      "merge an approved work item's revision into the default branch and close the item (fast-forward when possible; never touches a dirty checkout)",
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('--json', 'print the result as JSON (shape: src/cli/README.md)')
    .action(
      runCliAction('merge', (rawID: string, options: { json?: boolean }) => {
        const id = parseWorkItemID(rawID);
        return withCliContext(async ({ tracker, repoRoot, config }) => {
          const item = requireWorkItem(tracker, id);
          if (item.status !== 'approved') {
            throw new CliError(
              `#${id} is ${item.status}, not approved; only approved items are merged (wait for the reviewer, or approve it yourself: \`flotilla work transition ${id} approved\`)`,
              { exitCode: 1 },
            );
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
          const result = await integrateRevision({
            repoRoot,
            defaultBranch: config.defaultBranch,
            branchName: revision.headRef,
            headSHA: revision.headSHA,
            message: `Merge ${revision.headRef}: ${revision.title}\n\nWork item #${id}, revision #${revision.id}, merged by flotilla merge.\n`,
            fallbackIdentity: LOCAL_REVISION_IDENTITY,
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
              `${config.defaultBranch} now contains revision #${revision.id} (${result.mergedSHA.slice(0, 12)}), but the tracker could not record it: ${error instanceof Error ? error.message : String(error)}; close the item with \`flotilla work transition ${id} closed\``,
              { exitCode: 1 },
            );
          }
          const summary: MergeSummary = {
            workItemID: id,
            revisionID: revision.id,
            branch: revision.headRef,
            defaultBranch: config.defaultBranch,
            ...result,
          };
          if (options.json) return writeJson(summary);
          const how =
            result.strategy === 'already-merged'
              ? `${config.defaultBranch} already contained it`
              : `${result.strategy} ${result.previousSHA.slice(0, 12)}..${result.mergedSHA.slice(0, 12)}`;
          process.stdout.write(
            `merged revision #${revision.id} (${revision.headRef}) into ${config.defaultBranch}: ${how}; closed #${id}\n` +
              (result.updatedWorktree === null ? '' : `updated the checkout at ${result.updatedWorktree}\n`),
          );
        });
      }),
    );
}
