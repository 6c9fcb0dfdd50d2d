import type { Command } from 'commander';
import { buildAnswerComment } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readBodyOption } from '../support/read-body-option.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
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
          const provider = await context.provider.open();
          const item = await requireProviderItem(provider, id);
          if (item.status !== 'waiting-for-input') {
            throw new CliError(
              `#${id} is ${item.status}, not waiting-for-input: no agent is waiting for answers ` +
                '(`flotilla work list --status waiting-for-input` lists those that are)',
              { exitCode: 1 },
            );
          }
          // A comment on the item, where the running engine's answer poller reads it: under your name where
          // the tracker records authors, else posted by the token's user.
          const comment = buildAnswerComment(answers.trim());
          let where: string;
          if (provider.localAdmin !== undefined) {
            const author = await readHumanAuthor(context.repoRoot);
            await provider.localAdmin.addHumanComment(id, { body: comment, author });
            where = `as ${author}`;
          } else {
            await provider.workItemWriter.addComment(id, comment);
            where = `with a comment on ${context.provider.links?.itemUrl(id) ?? `#${id}`}`;
          }
          process.stdout.write(
            `answered #${id} ${where}; the agent's session resumes with it (at once if flotilla run is running, else at its next start)\n`,
          );
        });
      }),
    );
}
