import { appendFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AGENT_ROLES, type AgentRole } from '../../domain/index.ts';
import {
  AGENT_TOOL_DESCRIPTIONS,
  type AgentToolName,
  parseAgentToolCall,
} from '../../engine/runtime-contract/index.ts';
import { AGENT_NOTES_ENV, AGENT_ROLE_ENV } from '../../runtimes/shared/agent-command-channel.ts';
import { CliError } from '../support/cli-error.ts';
import { runCliAction } from '../support/run-cli-action.ts';

interface Verb {
  name: string;
  tool: AgentToolName;
  options: { flag: string; field: string; description: string }[];
  done: (input: Record<string, string>) => string;
}

const VERBS: Verb[] = [
  {
    name: 'store-memory',
    tool: 'store_memory',
    options: [
      { flag: '--topic <topic>', field: 'topic', description: 'a short name for what it is about' },
      { flag: '--text <text>', field: 'text', description: 'the fact, self-contained' },
    ],
    done: (input) => `ok: memory '${input.topic}' stored`,
  },
  {
    name: 'record-decision',
    tool: 'record_decision',
    options: [
      { flag: '--decision <decision>', field: 'decision', description: 'what you decided' },
      { flag: '--why <why>', field: 'why', description: 'why' },
    ],
    done: () => 'ok: decision recorded',
  },
  {
    name: 'log-question',
    tool: 'log_question',
    options: [{ flag: '--text <question>', field: 'text', description: 'the question, self-contained' }],
    done: () => 'ok: question logged for a human; carry on with your best assumption',
  },
  {
    name: 'update-summary',
    tool: 'update_summary',
    options: [{ flag: '--text <line>', field: 'text', description: 'one line: what you are doing now' }],
    done: () => 'ok: summary updated',
  },
];

/**
 * `flotilla agent <verb>` (issue #28 §2): Flotilla's internal tools for agents that run commands (CLI
 * runtimes, Gemini, Codex). Runs only inside an agent run, through the per-run `flotilla` script on the
 * agent's PATH (runtimes/shared/agent-command-channel.ts): the call is validated and appended to the
 * run's notes file, which the run reads; nothing else is touched (no tracker, no database).
 */
export function registerAgentCommand(program: Command): void {
  const agent = program
    .command('agent')
    .description("an agent's tools while it runs (memory, decisions, questions, progress)");
  for (const verb of VERBS) {
    const command = agent.command(verb.name).description(AGENT_TOOL_DESCRIPTIONS[verb.tool]);
    for (const option of verb.options) command.requiredOption(option.flag, option.description);
    command.action(
      runCliAction(`agent ${verb.name}`, (options: Record<string, string>) => {
        const file = process.env[AGENT_NOTES_ENV];
        const role = process.env[AGENT_ROLE_ENV];
        if (file === undefined || file === '' || !(AGENT_ROLES as readonly string[]).includes(role ?? ''))
          throw new CliError(
            `only an agent run has these tools (${AGENT_NOTES_ENV} and ${AGENT_ROLE_ENV} are not set)`,
            { exitCode: 1 },
          );
        const input: Record<string, string> = Object.fromEntries(
          verb.options.map(({ field }) => [field, options[field] ?? '']),
        );
        const parsed = parseAgentToolCall(verb.tool, input, role as AgentRole);
        if (!parsed.ok) throw new CliError(parsed.error, { exitCode: 2 });
        appendFileSync(file, `${JSON.stringify({ tool: verb.tool, input })}\n`);
        process.stdout.write(`${verb.done(input)}\n`);
      }),
    );
  }
}
