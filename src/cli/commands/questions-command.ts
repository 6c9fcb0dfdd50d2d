import type { Command } from 'commander';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/**
 * `flotilla questions [--limit n] [--json]` (issue #28 §2): the non-blocking questions agents logged for a
 * human (`log_question`), newest first. Their runs went on with an assumption; answer by steering the item
 * (a comment, an edit). Questions that stopped a run wait in `flotilla answer`.
 */
export function registerQuestionsCommand(program: Command): void {
  program
    .command('questions')
    .description(
      "questions agents logged for a human without stopping (newest first); blocking ones: 'flotilla answer'",
    )
    .option('--limit <n>', 'show at most this many', '50')
    .option('--json', 'print a JSON array')
    .action(
      runCliAction('questions', (options: { limit: string; json?: boolean }) =>
        withCliContext((context) => {
          const limit = Math.max(1, Number.parseInt(options.limit, 10) || 50);
          const questions = context.history.notes.list('question', { limit });
          if (options.json) return writeJson(questions);
          if (questions.length === 0) {
            process.stdout.write('No questions logged.\n');
            return;
          }
          for (const question of questions) {
            const item = question.workItemID === null ? 'planner' : `#${question.workItemID}`;
            const at = new Date(question.createdAt).toISOString();
            process.stdout.write(
              `${item} [${question.role} · ${question.runtime ?? '?'}] ${at}\n  ${question.text}\n`,
            );
          }
        }),
      ),
    );
}
