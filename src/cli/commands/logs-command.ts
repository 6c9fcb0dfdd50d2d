import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { shortenTranscript } from '../../session-log/shorten-transcript.ts';
import { hasErrorCode } from '../../shared/has-error-code.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { EngineStatePersistence, StoredAgentRun } from '../../storage/index.ts';
import { CliError } from '../support/cli-error.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/** The whole history is searched for a prefix; it is small (one row per agent run). */
const ALL_RUNS = Number.MAX_SAFE_INTEGER;

/**
 * `flotilla logs <session> [--full]`: prints a run's transcript, tool calls and tool output cut to their
 * first lines unless `--full` (the file keeps everything). Like git's short SHAs, any unique prefix of the
 * session id names the run; an unknown or ambiguous prefix, or a transcript that is gone, is exit 1.
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
          const run = resolveRun(history, prefix);
          if (run.logFilePath === null) {
            throw new CliError(
              `run ${run.sessionID} (${run.role}, ${run.status}) has no transcript: it never started a session, or agent session logging is off (logging.agentSessions)`,
              { exitCode: 1 },
            );
          }
          let text: string;
          try {
            text = await readFile(run.logFilePath, 'utf8');
          } catch (error) {
            const missing = hasErrorCode(error, 'ENOENT');
            throw new CliError(
              missing
                ? `the transcript of run ${run.sessionID} is gone: ${run.logFilePath} does not exist (deleted or moved)`
                : `cannot read ${run.logFilePath}: ${messageOf(error)}`,
              { exitCode: 1 },
            );
          }
          process.stdout.write(
            options.full ? text : shortenTranscript(text, { hint: '; `flotilla logs --full` shows all' }),
          );
        });
      }),
    );
}

function resolveRun(history: EngineStatePersistence, prefix: string): StoredAgentRun {
  const exact = history.getRun(prefix);
  if (exact !== null) return exact;
  const matches = history.listRuns({ limit: ALL_RUNS }).filter((run) => run.sessionID.startsWith(prefix));
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  if (matches.length === 0) {
    throw new CliError(`no run has a session id starting with "${prefix}"; see \`flotilla runs\``, {
      exitCode: 1,
    });
  }
  throw new CliError(`"${prefix}" is ambiguous: ${matches.length} runs match; give more characters:`, {
    exitCode: 1,
    details: matches.map((run) => `${run.sessionID}  ${run.role}  ${run.status}`),
  });
}
