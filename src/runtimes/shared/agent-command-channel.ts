import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRole, IncomingAgentQuestion } from '../../domain/index.ts';
import { AGENT_NOTE_LIMITS } from '../../domain/index.ts';
import type { AgentConversations } from './create-agent-conversations.ts';
import type { AgentNotes } from './create-agent-notes.ts';

/**
 * The channel agents that run commands (CLI runtimes, Gemini, Codex) reach Flotilla's internal tools through
 * (issue #28 §2): `flotilla agent <verb>` appends one JSON line per call to the run's notes file, in the
 * run's own directory (writable in the sandbox, removed with the run), and the run shell reads it. The
 * `flotilla` on the agent's PATH is a per-run script that runs only `flotilla agent …` and names the file:
 * agents never hold tracker credentials or a database, only this file.
 */
export const AGENT_NOTES_FILE = 'agent-notes.jsonl';
/**
 * Inter-agent questions (issue #28 §3) over the same channel: `flotilla agent ask|answer` append their call
 * with a `callID` and wait for the run shell's reply in `<runDir>/agent-replies/<callID>.json`
 * (`{ok, text}`); the questions waiting for this agent are `<runDir>/agent-inbox.json` (an array of
 * IncomingAgentQuestion, rewritten whole on every change), read by `check-messages` and `listen`.
 */
export const AGENT_INBOX_FILE = 'agent-inbox.json';
export const AGENT_REPLIES_DIR = 'agent-replies';
/** A call id: what `flotilla agent` generates (a UUID); anything else is refused, so no path can escape. */
const CALL_ID = /^[a-z0-9-]{8,64}$/;
/** The conversation tools that go through the channel and wait for a reply. */
const CONVERSATION_CALLS = new Set(['ask_agent', 'answer_agent']);

/** The variables `flotilla agent` reads: the notes file and the role (the per-run script sets both). */
export const AGENT_NOTES_ENV = 'FLOTILLA_AGENT_NOTES';
export const AGENT_ROLE_ENV = 'FLOTILLA_AGENT_ROLE';

/** A line longer than this is no honest note (the fields' caps sum far below it); it is skipped. */
const MAX_LINE_BYTES = 64 * 1024;

/** The launcher of this installation (`bin/flotilla.js`), from src/ and from dist/ alike. */
const FLOTILLA_BIN = fileURLToPath(new URL('../../../bin/flotilla.js', import.meta.url));

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** The directory holding the per-run `flotilla` script: put it first on the agent's PATH. */
export function agentBinDir(runDir: string): string {
  return join(runDir, 'bin');
}

/**
 * Writes the per-run `flotilla` script (in `<runDir>/bin/`) and an empty notes file. Call once the run
 * directory exists.
 */
export async function writeAgentCommand(runDir: string, role: AgentRole): Promise<void> {
  const notes = join(runDir, AGENT_NOTES_FILE);
  await writeFile(notes, '', { mode: 0o600 });
  await mkdir(join(runDir, AGENT_REPLIES_DIR), { recursive: true, mode: 0o700 });
  await writeFile(join(runDir, AGENT_INBOX_FILE), '[]\n', { mode: 0o600 });
  await mkdir(agentBinDir(runDir), { recursive: true, mode: 0o700 });
  const script = [
    '#!/bin/sh',
    "# Flotilla's internal tools for one agent run: only `flotilla agent <verb>` (see `flotilla agent --help`).",
    'if [ "$1" != agent ]; then',
    `  echo "flotilla: agents may run only 'flotilla agent <verb>' here" >&2`,
    '  exit 2',
    'fi',
    `${AGENT_NOTES_ENV}=${quote(notes)} ${AGENT_ROLE_ENV}=${quote(role)} exec ${quote(process.execPath)} ${quote(FLOTILLA_BIN)} "$@"`,
    '',
  ].join('\n');
  await writeFile(join(agentBinDir(runDir), 'flotilla'), script, { mode: 0o700 });
}

/**
 * Reads the run's notes file as it grows: every complete line is one tool call (`{"tool", "input"}`),
 * validated and recorded; a bad line is skipped (the command validated it already; the file is the agent's
 * to write, so it is read as untrusted). `poll()` reads what was appended since the last poll.
 */
export function createAgentNotesReader(
  runDir: string,
  notes: AgentNotes,
  onRefused: (problem: string) => void,
  /** Where `ask_agent`/`answer_agent` calls go; absent: they are refused like unknown tools. */
  conversations?: AgentConversations,
): { poll(): Promise<void> } {
  const path = join(runDir, AGENT_NOTES_FILE);
  let offset = 0;
  let partial = '';
  let reading: Promise<void> = Promise.resolve();
  const readNew = async () => {
    const file = await open(path, 'r').catch(() => null);
    if (file === null) return;
    try {
      const { size } = await file.stat();
      if (size <= offset) return;
      const buffer = Buffer.alloc(size - offset);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      offset += bytesRead;
      const lines = (partial + buffer.subarray(0, bytesRead).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > MAX_LINE_BYTES) partial = '';
      for (const line of lines) if (line.trim() !== '') readLine(line);
    } finally {
      await file.close();
    }
  };
  const readLine = (line: string) => {
    if (line.length > MAX_LINE_BYTES) return onRefused(`a note line of ${line.length} bytes`);
    let call: unknown;
    try {
      call = JSON.parse(line);
    } catch {
      return onRefused('a note line that is not JSON');
    }
    const { tool, input, callID } = (call ?? {}) as { tool?: unknown; input?: unknown; callID?: unknown };
    if (conversations !== undefined && typeof tool === 'string' && CONVERSATION_CALLS.has(tool)) {
      if (typeof callID !== 'string' || !CALL_ID.test(callID))
        return onRefused(`a ${tool} call without a valid callID`);
      const reply =
        tool === 'ask_agent'
          ? conversations.ask(input).then((text) => ({ ok: true, text }))
          : Promise.resolve(conversations.answer(input));
      void reply.then((body) => writeReply(runDir, callID, body)).catch(() => {});
      return;
    }
    const parsed = notes.record(typeof tool === 'string' ? tool : String(tool), input);
    if (!parsed.ok) onRefused(parsed.error);
  };
  return {
    poll() {
      // One read at a time, in order: a poll waits for the one before it.
      reading = reading.then(readNew, readNew).catch(() => {});
      return reading;
    },
  };
}

/** Writes a call's reply where `flotilla agent` waits for it (whole, by rename: never read half-written). */
async function writeReply(runDir: string, callID: string, body: { ok: boolean; text: string }) {
  const path = join(runDir, AGENT_REPLIES_DIR, `${callID}.json`);
  await writeFile(`${path}.tmp`, JSON.stringify(body), { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** Rewrites the inbox `flotilla agent check-messages|listen` read: the questions waiting for this agent. */
export async function writeAgentInbox(runDir: string, pending: readonly IncomingAgentQuestion[]) {
  const path = join(runDir, AGENT_INBOX_FILE);
  await writeFile(`${path}.tmp`, `${JSON.stringify(pending)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** The agent's environment with the per-run `flotilla` script first on its PATH. */
export function withAgentBinOnPath<Env extends Record<string, string>>(env: Env, runDir: string): Env {
  const path = env.PATH;
  return {
    ...env,
    PATH: path === undefined || path === '' ? agentBinDir(runDir) : `${agentBinDir(runDir)}:${path}`,
  };
}

/** What an agent that runs commands is told about its tools (appended to its prompt or instructions). */
export function buildAgentCommandInstructions(): string {
  const limits = AGENT_NOTE_LIMITS;
  return [
    "## Flotilla's tools",
    '',
    'While you work you can record notes with these commands (each prints `ok` or what was wrong; none of them',
    'stops your work):',
    '',
    `- \`flotilla agent store-memory --topic <topic> --text <text>\`: a fact about this repository later agents should know (topic ≤ ${limits.topic}, text ≤ ${limits.memoryText} characters; a topic stored again is replaced). Never store secrets or code changes.`,
    `- \`flotilla agent record-decision --decision <decision> --why <why>\`: a decision you made on this task, and why.`,
    `- \`flotilla agent log-question --text <question>\`: a question for a human that does not block you; go on with your best assumption.`,
    `- \`flotilla agent update-summary --text <one line>\`: what you are doing now (≤ ${limits.summary} characters), shown live.`,
    '',
    'Other agents work beside you, and you can ask each other:',
    '',
    '- `flotilla agent ask --to <work item id, or planner> --question <question> [--timeout <seconds>]`: asks the agent running on that item (or the planner) and waits for its answer; it prints the answer, or at once why there is none (it is not running; it waits on you).',
    '- `flotilla agent check-messages`: lists the questions other agents asked you that wait for your answer. **Run it between your steps** (after each command or edit you finish) and answer at once: they are waiting.',
    '- `flotilla agent answer --id <conversation id> --text <answer>`: answers one of them.',
    '- `flotilla agent listen [--timeout <seconds>]`: waits for the next question and prints it as JSON (`{conversationId, from, question}`), e.g. in the background.',
  ].join('\n');
}
