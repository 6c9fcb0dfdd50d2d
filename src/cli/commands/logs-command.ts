import type { Command } from 'commander';
import { shortenTranscript } from '../../session-log/shorten-transcript.ts';
import { CliError } from '../support/cli-error.ts';
import { readRunTranscript } from '../support/read-run-transcript.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla logs <session> [--full]`: prints a run's transcript, tool calls and tool output cut to their
 * first lines unless `--full` (the file keeps everything). Like git's short SHAs, any unique prefix of the
 * session id names the run; an unknown or ambiguous prefix, or a transcript that is gone, is exit 1
 * (`readRunTranscript`, shared with the HTTP API).
 */
export function registerLogsCommand(program: Command): void {
  program
    .command('logs')
    .description(
      "print an agent run's transcript (session id or a unique prefix, as shown by `flotilla runs`)",
    )
    .argument('<session>', 'session id, or a unique prefix of it')
    .option('--full', 'print the whole transcript: every line of tool input and output')
    .action(
      runCliAction('logs', (session: string, options: { full?: boolean }) => {
        const prefix = session.trim();
        if (prefix === '')
          throw new CliError('the session id is empty; see `flotilla runs`', { exitCode: 2 });
        return withCliContext(async ({ history }) => {
          const { text } = await readRunTranscript(history, prefix);
          process.stdout.write(
            options.full ? text : shortenTranscript(text, { hint: '; `flotilla logs --full` shows all' }),
          );
        });
      }),
    );
}
