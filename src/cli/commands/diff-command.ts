import type { Command } from 'commander';
import { revisionName } from '../../domain/index.ts';
import { PINNED_DIFF_CONFIG, runGit } from '../../process/run-command.ts';
import { sanitizeTerminalText } from '../../tui/view-model/sanitize-terminal-text.ts';
import { CliError } from '../support/cli-error.ts';
import { findWorkItemRevision } from '../support/find-work-item-revision.ts';
import { loadGitHubTrackerCommands } from '../support/load-github-provider.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

interface DiffOptions {
  nameOnly?: boolean;
  color: string;
}

const COLOR_MODES = ['auto', 'always', 'never'];
const DIFF_FLAGS = ['--find-renames', '--no-color', '--no-ext-diff', '--no-textconv'];

/**
 * `flotilla diff <id> [--name-only] [--color auto|always|never]` (like `gh pr diff`): the changes of the
 * item's revision head (the open revision, else the merged or closed one) against the default-branch commit
 * it was made on — what the checks and the reviewer saw. Piped, it is git's patch verbatim (`git apply`
 * takes it); on a terminal it is coloured, with control characters from the (agent-written) text made
 * visible instead of reaching the terminal.
 */
export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description("show the diff of a work item's revision (coloured on a terminal, a plain patch otherwise)")
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('--name-only', 'list the changed files only')
    .option('--color <when>', 'auto (on a terminal), always or never', 'auto')
    .action(
      runCliAction('diff', (rawID: string, options: DiffOptions) => {
        const id = parseWorkItemID(rawID);
        if (!COLOR_MODES.includes(options.color)) {
          throw new CliError(`--color "${options.color}" is not valid; expected auto, always or never`, {
            exitCode: 2,
          });
        }
        return withCliContext(async (context) => {
          if (context.config.provider === 'github')
            return (await loadGitHubTrackerCommands()).diff(context, id, options);
          const { tracker, repoRoot } = context;
          const item = requireWorkItem(tracker, id, 'diff');
          const revision = findWorkItemRevision(tracker, item);
          if (revision === null) {
            throw new CliError(`#${id} has no revision yet, so there is no diff (it is ${item.status})`, {
              exitCode: 1,
            });
          }
          // Revision commits have exactly one parent: the default-branch commit the patch was applied to.
          const range = ['--end-of-options', `${revision.headSHA}^1`, revision.headSHA, '--'];
          const diff = await runGit(
            [
              ...PINNED_DIFF_CONFIG,
              'diff',
              ...(options.nameOnly ? ['--name-only'] : []),
              ...DIFF_FLAGS,
              ...range,
            ],
            { cwd: repoRoot, okExitCodes: [0, 128] },
          );
          if (diff.exitCode !== 0) {
            throw new CliError(
              `cannot read revision ${revisionName(revision)} (${revision.headRef} at ${revision.headSHA.slice(0, 12)}) from git: ${diff.stderr.trim()}`,
              { exitCode: 1 },
            );
          }
          const color =
            options.color === 'always' || (options.color === 'auto' && process.stdout.isTTY === true);
          if (!color) {
            process.stdout.write(diff.stdoutBytes);
            return;
          }
          process.stdout.write(colorDiff(diff.stdout, options.nameOnly === true));
        });
      }),
    );
}

const STYLES = { bold: '\x1b[1m', green: '\x1b[32m', red: '\x1b[31m', cyan: '\x1b[36m', reset: '\x1b[0m' };

/**
 * git's own colours, applied after sanitizing each line (git would pass the file's bytes through as-is): file
 * headers bold (from `diff --git` to the first hunk), hunk headers cyan, additions green, removals red.
 */
function colorDiff(text: string, nameOnly: boolean): string {
  if (text === '') return '';
  let inFileHeader = false;
  const lines = text
    .replace(/\n$/, '')
    .split('\n')
    .map((raw) => {
      const line = sanitizeTerminalText(raw);
      if (nameOnly) return line;
      if (raw.startsWith('diff --git ')) inFileHeader = true;
      else if (raw.startsWith('@@')) inFileHeader = false;
      const style = inFileHeader
        ? STYLES.bold
        : raw.startsWith('@@')
          ? STYLES.cyan
          : raw.startsWith('+')
            ? STYLES.green
            : raw.startsWith('-')
              ? STYLES.red
              : null;
      return style === null ? line : `${style}${line}${STYLES.reset}`;
    });
  return `${lines.join('\n')}\n`;
}
