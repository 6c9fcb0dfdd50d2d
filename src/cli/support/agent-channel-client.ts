import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_ROLES, type AgentRole, type IncomingAgentQuestion } from '../../domain/index.ts';
import {
  AGENT_INBOX_FILE,
  AGENT_NOTES_ENV,
  AGENT_REPLIES_DIR,
  AGENT_ROLE_ENV,
} from '../../runtimes/shared/agent-command-channel.ts';
import { CliError } from './cli-error.ts';

/**
 * The agent's side of the run's notes channel (runtimes/shared/agent-command-channel.ts), shared by the
 * `flotilla agent <verb>` commands and the `flotilla agent mcp` server: the run's notes file and role from
 * the per-run script's environment, a note appended as one JSON line, a conversation call waiting for its
 * reply, and the inbox of questions waiting for this agent. Nothing else is reached.
 */
export interface AgentChannel {
  role: AgentRole;
  /** Appends one validated tool call for the run shell to record. */
  append(tool: string, input: Record<string, unknown>): void;
  /** Appends a conversation call and waits (at most `waitSeconds`) for the run shell's reply. */
  call(
    tool: string,
    input: Record<string, unknown>,
    waitSeconds: number,
  ): Promise<{ ok: boolean; text: string }>;
  /** The questions other agents asked this one that wait for its answer. */
  readInbox(): IncomingAgentQuestion[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The channel of this agent run, or a CliError when this process is no agent run's. */
export function openAgentChannel(env: NodeJS.ProcessEnv = process.env): AgentChannel {
  const file = env[AGENT_NOTES_ENV];
  const role = env[AGENT_ROLE_ENV];
  if (file === undefined || file === '' || !(AGENT_ROLES as readonly string[]).includes(role ?? ''))
    throw new CliError(
      `only an agent run has these tools (${AGENT_NOTES_ENV} and ${AGENT_ROLE_ENV} are not set)`,
      { exitCode: 1 },
    );
  return {
    role: role as AgentRole,
    append(tool, input) {
      appendFileSync(file, `${JSON.stringify({ tool, input })}\n`);
    },
    // A run that ended meanwhile never replies, so the wait is bounded.
    async call(tool, input, waitSeconds) {
      const callID = randomUUID();
      const reply = join(dirname(file), AGENT_REPLIES_DIR, `${callID}.json`);
      appendFileSync(file, `${JSON.stringify({ tool, input, callID })}\n`);
      const deadline = Date.now() + waitSeconds * 1000;
      while (Date.now() < deadline) {
        if (existsSync(reply))
          return JSON.parse(readFileSync(reply, 'utf8')) as { ok: boolean; text: string };
        await sleep(200);
      }
      throw new CliError(`no reply from Flotilla within ${waitSeconds} s (has this run ended?)`, {
        exitCode: 1,
      });
    },
    readInbox() {
      try {
        const parsed: unknown = JSON.parse(readFileSync(join(dirname(file), AGENT_INBOX_FILE), 'utf8'));
        return Array.isArray(parsed) ? (parsed as IncomingAgentQuestion[]) : [];
      } catch {
        return [];
      }
    },
  };
}
