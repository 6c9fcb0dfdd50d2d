import { readFile } from 'node:fs/promises';
import { hasErrorCode } from '../../shared/has-error-code.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { EngineStatePersistence, StoredAgentRun } from '../../storage/index.ts';
import { buildRunSessionChain } from './build-run-session-chain.ts';
import { CliError } from './cli-error.ts';

/** What is read: a run by id, and the whole list. */
type RunHistory = Pick<EngineStatePersistence, 'getRun' | 'listRuns'>;

/** The whole history is searched for a prefix; it is small (one row per agent run). */
const ALL_RUNS = Number.MAX_SAFE_INTEGER;

/**
 * A run and its transcript's text, as `flotilla logs` prints it (before shortening) and the HTTP API's
 * `GET /api/runs/:session/transcript` returns it. Like git's short SHAs, any unique prefix of the session id
 * names the run; an unknown or ambiguous prefix, a run without a transcript or one that is gone: CliError
 * exit 1. A run resumed after a human's answers is several sessions (`buildRunSessionChain`): the text is all
 * of them, oldest first, each under a `--- session N of M: <id> (<status>) ---` line.
 */
export async function readRunTranscript(
  history: RunHistory,
  prefix: string,
): Promise<{ run: StoredAgentRun; text: string }> {
  const run = resolveRun(history, prefix);
  if (run.logFilePath === null) {
    throw new CliError(
      `run ${run.sessionID} (${run.role}, ${run.status}) has no transcript: it never started a session, or agent session logging is off (logging.agentSessions)`,
      { exitCode: 1 },
    );
  }
  const own = await readTranscriptFile(run, run.logFilePath);
  const chain = buildRunSessionChain(history.listRuns({ limit: ALL_RUNS }), run);
  if (chain.length === 1) return { run, text: own };
  // A resumed run: every session of it, oldest first, each under a line naming it (issue #28 §5).
  const parts = await Promise.all(
    chain.map(async (session, index) => {
      const heading = `--- session ${session.sessionNumber ?? 1} of ${chain.length}: ${session.sessionID} (${session.status}) ---\n`;
      if (session === run) return heading + own;
      if (session.logFilePath === null) return `${heading}(no transcript)\n`;
      const text = await readTranscriptFile(session, session.logFilePath).catch(
        (error: unknown) => `(${error instanceof CliError ? error.message : messageOf(error)})\n`,
      );
      return heading + text + (index < chain.length - 1 && !text.endsWith('\n') ? '\n' : '');
    }),
  );
  return { run, text: parts.join('\n') };
}

async function readTranscriptFile(run: StoredAgentRun, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const missing = hasErrorCode(error, 'ENOENT');
    throw new CliError(
      missing
        ? `the transcript of run ${run.sessionID} is gone: ${path} does not exist (deleted or moved)`
        : `cannot read ${path}: ${messageOf(error)}`,
      { exitCode: 1 },
    );
  }
}

function resolveRun(history: RunHistory, prefix: string): StoredAgentRun {
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
