import type { Command } from 'commander';
import { buildAnswerComment } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readBodyOption } from '../support/read-body-option.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla answer <id> [text] [--file answers.md]`: answers the questions an agent stopped with. The answer
 * is recorded as a comment on the item (as you); the running control plane (or the next `flotilla run`)
 * reads it and resumes the same agent session with it.
 */
export function registerAnswerCommand(program: Command): void {
  program
    .command('answer')
    .description("answer a waiting item's agent questions; the same agent session resumes with your answers")
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .argument('[text]', 'the answers (markdown); else --file, else stdin')
    .option('-F, --file <path>', "read the answers from a file ('-' for stdin)")
    .action(
      runCliAction('answer', async (rawID: string, text: string | undefined, options: { file?: string }) => {
        const id = parseWorkItemID(rawID);
        if (text !== undefined && options.file !== undefined) {
          throw new CliError('give the answers either as an argument or with --file, not both', {
            exitCode: 2,
          });
        }
        const fromStdin = text === undefined && options.file === undefined && process.stdin.isTTY !== true;
        const answers =
          text ?? (await readBodyOption({ bodyFile: options.file ?? (fromStdin ? '-' : undefined) })) ?? '';
        if (answers.trim() === '') {
          throw new CliError('the answer is empty; give it as an argument, with --file <path>, or on stdin', {
            exitCode: 2,
          });
        }
        await withCliContext(async (context) => {
          // Without a local tracker (GitHub) the answer is a comment on the item, read back by the running engine.
          const tracker = await openLocalTracker(context);
          if (tracker === undefined)
            return (await loadContractTrackerCommands()).answer(context, id, answers.trim());
          const { repoRoot } = context;
          const item = requireWorkItem(tracker, id);
          if (item.status !== 'waiting-for-input') {
            throw new CliError(
              `#${id} is ${item.status}, not waiting-for-input: no agent is waiting for answers ` +
                '(`flotilla work list --status waiting-for-input` lists those that are)',
              { exitCode: 1 },
            );
          }
          const author = await readHumanAuthor(repoRoot);
          tracker.workItems.addComment(id, buildAnswerComment(answers.trim()), author);
          process.stdout.write(
            `answered #${id} as ${author}; the agent's session resumes with it (at once if flotilla run is running, else at its next start)\n`,
          );
        });
      }),
    );
}
