import { readFile } from 'node:fs/promises';
import { hasErrorCode } from '../../shared/has-error-code.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { EngineStatePersistence, StoredAgentRun } from '../../storage/index.ts';
import { buildRemoteTranscript } from './build-remote-transcript.ts';
import { buildRunSessionChain } from './build-run-session-chain.ts';
import { CliError } from './cli-error.ts';

/** What is read: a run by id, the whole list, and (cluster mode) the transcripts workers streamed. */
type RunHistory = Pick<EngineStatePersistence, 'getRun' | 'listRuns'> &
  Partial<Pick<EngineStatePersistence, 'transcripts'>>;

/** The whole history is searched for a prefix; it is small (one row per agent run). */
const ALL_RUNS = Number.MAX_SAFE_INTEGER;

/**
 * A run and its transcript's text, as `flotilla logs` prints it (before shortening) and the HTTP API's
 * `GET /api/runs/:session/transcript` returns it. Like git's short SHAs, any unique prefix of the session id
 * names the run; an unknown or ambiguous prefix, a run without a transcript or one that is gone: CliError
 * exit 1. A run resumed after a human's answers is several sessions (`buildRunSessionChain`): the text is all
 * of them, oldest first, each under a `--- session N of M: <id> (<status>) ---` line. A transcript that is not
 * a file here — a run on another machine of a cluster (issue #33) — is read from what its worker streamed to
 * PostgreSQL (`history.transcripts`), so far while it runs; one machine reads only files.
 */
export async function readRunTranscript(
  history: RunHistory,
  prefix: string,
): Promise<{ run: StoredAgentRun; text: string }> {
  const run = resolveRun(history, prefix);
  const own = await readTranscript(history, run);
  const chain = buildRunSessionChain(history.listRuns({ limit: ALL_RUNS }), run);
  if (chain.length === 1) return { run, text: own };
  // A resumed run: every session of it, oldest first, each under a line naming it (issue #28 §5).
  const parts = await Promise.all(
    chain.map(async (session, index) => {
      const heading = `--- session ${session.sessionNumber ?? 1} of ${chain.length}: ${session.sessionID} (${session.status}) ---\n`;
      if (session === run) return heading + own;
      const text = await readTranscript(history, session).catch((error: unknown) =>
        session.logFilePath === null
          ? '(no transcript)\n'
          : `(${error instanceof CliError ? error.message : messageOf(error)})\n`,
      );
      return heading + text + (index < chain.length - 1 && !text.endsWith('\n') ? '\n' : '');
    }),
  );
  return { run, text: parts.join('\n') };
}

/** The run's transcript: its file when this machine has it, else what its worker streamed (cluster mode). */
async function readTranscript(history: RunHistory, run: StoredAgentRun): Promise<string> {
  const streamed = () => {
    const chunks = history.transcripts?.chunksOf(run.sessionID) ?? [];
    return chunks.length === 0 ? null : buildRemoteTranscript(chunks);
  };
  if (run.logFilePath === null) {
    const remote = streamed();
    if (remote !== null) return remote;
    throw new CliError(
      `run ${run.sessionID} (${run.role}, ${run.status}) has no transcript: it never started a session, agent session logging is off (logging.agentSessions), or (cluster mode) its worker has sent none yet`,
      { exitCode: 1 },
    );
  }
  try {
    return await readFile(run.logFilePath, 'utf8');
  } catch (error) {
    const remote = hasErrorCode(error, 'ENOENT') ? streamed() : null;
    if (remote !== null) return remote;
    throw transcriptFileError(run, run.logFilePath, error);
  }
}

function transcriptFileError(run: StoredAgentRun, path: string, error: unknown): CliError {
  return new CliError(
    hasErrorCode(error, 'ENOENT')
      ? `the transcript of run ${run.sessionID} is gone: ${path} does not exist (deleted or moved)`
      : `cannot read ${path}: ${messageOf(error)}`,
    { exitCode: 1 },
  );
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
