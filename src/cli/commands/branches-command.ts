import type { Command } from 'commander';
import { type DeleteBranchOutcome, deleteRevisionBranch } from '../../process/delete-revision-branch.ts';
import { runGit } from '../../process/run-command.ts';
import type { SqliteTracker } from '../../storage/index.ts';
import { CliError } from '../support/cli-error.ts';
import { requireLocalTracker } from '../support/require-local-tracker.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** One `flotilla/*` branch as `branches prune` judged it (`--json` prints an array of these). */
export interface PrunedBranch {
  branch: string;
  headSHA: string;
  /** `merged`: a merged revision had this head (squash and rebase included) or the default branch contains it. */
  reason: 'merged';
  /** What happened: deleted, or kept (`checked-out`, `moved` since it was read); `would-delete` with --dry-run. */
  outcome: DeleteBranchOutcome | 'would-delete';
}

/**
 * `flotilla branches prune [--dry-run] [--json]`: deletes the `flotilla/*` revision branches whose work is
 * merged — a merged revision recorded that head (so `merge --squash`/`--rebase` count), or the default branch
 * contains it — and that no open revision uses. Branches of open revisions, of revisions closed without a
 * merge (kept as a record of the work) and ones checked out in a worktree stay. Like `git fetch --prune`:
 * safe to run any time, alongside a running `flotilla run`.
 */
export function registerBranchesCommand(program: Command): void {
  const branches = program.command('branches').description('manage the flotilla/* revision branches');
  branches
    .command('prune')
    .description('delete the flotilla/* branches whose revision is merged (open and unmerged ones stay)')
    .option('--dry-run', 'list what would be deleted, delete nothing')
    .option('--json', 'print a JSON array of the branches')
    .action(
      runCliAction('branches prune', (options: { dryRun?: boolean; json?: boolean }) =>
        withCliContext(async (context) => {
          const { repoRoot, config } = context;
          const refusal = context.provider.refusal('branches prune');
          if (refusal !== undefined) throw new CliError(refusal, { exitCode: 2 });
          const tracker = await requireLocalTracker(context, 'branches prune');
          const listed = await runGit(
            ['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/heads/flotilla/'],
            { cwd: repoRoot },
          );
          const results: PrunedBranch[] = [];
          for (const line of listed.stdout.split('\n').filter((entry) => entry !== '')) {
            const [ref = '', headSHA = ''] = line.split('\0');
            const branch = ref.slice('refs/heads/'.length);
            if (!(await isMerged(tracker, repoRoot, config.defaultBranch, branch, headSHA))) continue;
            const outcome = options.dryRun
              ? ('would-delete' as const)
              : await deleteRevisionBranch(repoRoot, branch, headSHA);
            results.push({ branch, headSHA, reason: 'merged', outcome });
          }
          if (options.json) return writeJson(results);
          if (results.length === 0) {
            process.stdout.write('no merged flotilla/* branches to delete\n');
            return;
          }
          for (const result of results) process.stdout.write(`${describe(result)}\n`);
        }),
      ),
    );
}

async function isMerged(
  tracker: SqliteTracker,
  repoRoot: string,
  defaultBranch: string,
  branch: string,
  headSHA: string,
): Promise<boolean> {
  // Engine branches are named flotilla/<work item id>; other names are looked up by the default branch alone.
  const workItemID = /^flotilla\/([1-9][0-9]*)$/.exec(branch)?.[1];
  const revisions = (
    workItemID === undefined ? [] : tracker.revisions.listWorkItemRevisions(workItemID)
  ).filter((revision) => revision.headRef === branch);
  const states = revisions.map((revision) => ({
    revision,
    state: tracker.revisions.getRevisionState(revision.id),
  }));
  if (states.some(({ state }) => state === 'open')) return false;
  if (states.some(({ revision, state }) => state === 'merged' && revision.headSHA === headSHA)) return true;
  const contained = await runGit(['merge-base', '--is-ancestor', headSHA, `refs/heads/${defaultBranch}`], {
    cwd: repoRoot,
    okExitCodes: [0, 1, 128],
  });
  return contained.exitCode === 0;
}

function describe(result: PrunedBranch): string {
  const at = result.headSHA.slice(0, 12);
  switch (result.outcome) {
    case 'would-delete':
      return `would delete ${result.branch} (${at}, merged)`;
    case 'deleted':
      return `deleted ${result.branch} (${at}, merged)`;
    case 'gone':
      return `${result.branch} was already deleted`;
    case 'checked-out':
      return `kept ${result.branch}: it is checked out in a worktree`;
    case 'moved':
      return `kept ${result.branch}: it moved while pruning`;
  }
}
