import type { Command } from 'commander';
import type { AgentReviewComment } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { collectOption } from '../support/collect-option.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { type BodyOptions, readBodyOption } from '../support/read-body-option.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import {
  HUMAN_VERDICTS,
  type HumanVerdict,
  type ReviewSummary,
  recordHumanReview,
} from '../support/record-human-review.ts';
import { requireNoActiveAgent } from '../support/require-no-active-agent.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface ReviewOptions extends BodyOptions {
  approve?: boolean;
  requestChanges?: boolean;
  comment?: boolean;
  commentOn?: string[];
  json?: boolean;
}

type Verdict = HumanVerdict;

/** `flotilla review --json` (documented in src/cli/README.md). */
export type ReviewJson = Omit<ReviewSummary, 'checks' | 'revisionName' | 'headRef'>;

function toReviewJson(summary: ReviewSummary): ReviewJson {
  const { checks: _checks, revisionName: _name, headRef: _ref, ...json } = summary;
  return json;
}

/**
 * `flotilla review <id> --approve | --request-changes | --comment [-b <text> | -F <file>]` (like
 * `gh pr review`): your verdict on the item's open revision, recorded like the reviewer agent's (a review on
 * the revision, a comment on the item) and moving the item as the engine would for that verdict: approve →
 * `approved` (then `flotilla merge`), request changes → `pending` (a running engine sends it back to an
 * implementor), comment → no move. Refused while an agent works on the item, since its result would
 * overwrite your verdict.
 */
export function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description(
      "review a work item's open revision yourself: --approve (→ approved), --request-changes (→ pending, reworked by an implementor) or --comment",
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('-a, --approve', 'approve the revision: the item becomes approved, ready for `flotilla merge`')
    .option('-r, --request-changes', 'ask for changes: the item goes back to pending for an implementor')
    .option('-c, --comment', 'comment on the revision without a verdict')
    .option('-b, --body <text>', 'the review text (required for --request-changes and --comment)')
    .option('-F, --body-file <path>', "read the review text from a file ('-' for stdin)")
    .option(
      '--comment-on <path:line=text>',
      "a line comment, e.g. --comment-on 'lib/greet.js:12=trim the name' (repeatable); the rework prompt carries it",
      collectOption,
      [],
    )
    .option('--json', 'print the recorded review as JSON')
    .action(
      runCliAction('review', async (rawID: string, options: ReviewOptions) => {
        const id = parseWorkItemID(rawID);
        const verdict = parseVerdict(options);
        const body = (await readBodyOption(options)) ?? '';
        const lineComments = (options.commentOn ?? []).map(parseCommentOn);
        if (verdict !== 'approve' && body.trim() === '' && lineComments.length === 0) {
          throw new CliError(
            `--${verdict} needs the review text: give it with --body or --body-file (or line comments with --comment-on)`,
            {
              exitCode: 2,
            },
          );
        }
        await withCliContext(async (context) => {
          const { history, paths, repoRoot } = context;
          const tracker = await openLocalTracker(context);
          if (tracker === undefined) {
            if (lineComments.length > 0) {
              throw new CliError(
                '--comment-on is for the local provider; on GitHub, comment on the lines in the pull request (a changes request or an @flotilla mention there sends it back)',
                { exitCode: 2 },
              );
            }
            requireNoActiveAgent({ history, paths }, id, 'your verdict');
            const author = await readHumanAuthor(repoRoot);
            return (await loadContractTrackerCommands()).review(context, id, { verdict, body, author });
          }
          const summary = recordHumanReview({ tracker, history, stateDir: paths.stateDir }, id, {
            verdict,
            body,
            author: await readHumanAuthor(repoRoot),
            lineComments,
          });
          if (verdict === 'approve' && summary.checks !== 'success') {
            process.stderr.write(
              `note: the checks of revision ${summary.revisionName} are ${summary.checks === 'failure' ? 'failed' : 'pending'} (\`flotilla checks ${id}\`); approved anyway because you asked\n`,
            );
          }
          if (options.json) return writeJson(toReviewJson(summary));
          const { previousStatus, status } = summary;
          const move =
            status === previousStatus ? `#${id} stays ${status}` : `#${id} ${previousStatus} → ${status}`;
          const next =
            verdict === 'approve'
              ? `; \`flotilla merge ${id}\` merges it`
              : verdict === 'request-changes'
                ? '; a running `flotilla run` sends it back to an implementor with your review'
                : '';
          process.stdout.write(
            `${HUMAN_VERDICTS[verdict].verb} revision ${summary.revisionName} (${summary.headRef} at ${summary.headSHA.slice(0, 12)}): ${move}${next}\n`,
          );
        });
      }),
    );
}

/** `path:line=text` (the first `:<digits>=` ends the path): one line comment of the review. */
function parseCommentOn(value: string): AgentReviewComment {
  const match = /^(.+?):(\d+)=([\s\S]*)$/.exec(value);
  const path = match?.[1]?.trim() ?? '';
  const line = Number(match?.[2]);
  const text = match?.[3]?.trim() ?? '';
  if (match === null || path === '' || !Number.isSafeInteger(line) || line < 1 || text === '') {
    throw new CliError(
      `--comment-on ${JSON.stringify(value)}: expected path:line=text, e.g. 'src/a.ts:12=trim the name' (a line number from 1, some text)`,
      { exitCode: 2 },
    );
  }
  return { path: path.replace(/^\.\//, ''), line, body: text };
}

function parseVerdict(options: ReviewOptions): Verdict {
  const given: Verdict[] = [];
  if (options.approve) given.push('approve');
  if (options.requestChanges) given.push('request-changes');
  if (options.comment) given.push('comment');
  if (given.length !== 1) {
    throw new CliError('give exactly one of --approve, --request-changes or --comment', { exitCode: 2 });
  }
  return given[0] as Verdict;
}
