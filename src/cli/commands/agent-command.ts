import type { Command } from 'commander';
import { AGENT_CONVERSATION_LIMITS } from '../../domain/index.ts';
import {
  AGENT_TOOL_DESCRIPTIONS,
  type AgentToolName,
  CONVERSATION_TOOL_DESCRIPTIONS,
  formatIncomingQuestion,
  parseAgentAnswer,
  parseAgentAsk,
  parseAgentToolCall,
} from '../../engine/runtime-contract/index.ts';
import { openAgentChannel } from '../support/agent-channel-client.ts';
import { CliError } from '../support/cli-error.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { serveAgentMcp } from '../support/serve-agent-mcp.ts';

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
    .description(
      "an agent's tools while it runs (memory, decisions, questions, progress, asking other agents)",
    );
  registerConversationVerbs(agent);
  agent
    .command('mcp')
    .description("Flotilla's tools as a stdio MCP server (codex's mcp_servers): the same checks and channel")
    .action(runCliAction('agent mcp', () => serveAgentMcp(openAgentChannel())));
  for (const verb of VERBS) {
    const command = agent.command(verb.name).description(AGENT_TOOL_DESCRIPTIONS[verb.tool]);
    for (const option of verb.options) command.requiredOption(option.flag, option.description);
    command.action(
      runCliAction(`agent ${verb.name}`, (options: Record<string, string>) => {
        const channel = openAgentChannel();
        const input: Record<string, string> = Object.fromEntries(
          verb.options.map(({ field }) => [field, options[field] ?? '']),
        );
        const parsed = parseAgentToolCall(verb.tool, input, channel.role);
        if (!parsed.ok) throw new CliError(parsed.error, { exitCode: 2 });
        channel.append(verb.tool, input);
        process.stdout.write(`${verb.done(input)}\n`);
      }),
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `flotilla agent ask|answer|check-messages|listen` (issue #28 §3): questions between running agents. */
function registerConversationVerbs(agent: Command): void {
  agent
    .command('ask')
    .description(CONVERSATION_TOOL_DESCRIPTIONS.ask_agent)
    .requiredOption('--to <target>', 'the work item id of the agent to ask, or "planner"')
    .requiredOption('--question <question>', 'the question, self-contained')
    .option(
      '--timeout <seconds>',
      `how long to wait (default ${AGENT_CONVERSATION_LIMITS.defaultTimeoutSeconds})`,
    )
    .action(
      runCliAction('agent ask', async (options: { to: string; question: string; timeout?: string }) => {
        const input = {
          to: options.to,
          question: options.question,
          ...(options.timeout !== undefined && { timeoutSeconds: Number(options.timeout) }),
        };
        const parsed = parseAgentAsk(input);
        if (!parsed.ok) throw new CliError(parsed.error, { exitCode: 2 });
        const reply = await openAgentChannel().call('ask_agent', input, parsed.value.timeoutSeconds + 30);
        process.stdout.write(`${reply.text}\n`);
      }),
    );
  agent
    .command('answer')
    .description(CONVERSATION_TOOL_DESCRIPTIONS.answer_agent)
    .requiredOption('--id <conversation>', 'the conversation id the question came with')
    .requiredOption('--text <answer>', 'your answer, self-contained')
    .action(
      runCliAction('agent answer', async (options: { id: string; text: string }) => {
        const input = { conversationId: options.id, answer: options.text };
        const parsed = parseAgentAnswer(input);
        if (!parsed.ok) throw new CliError(parsed.error, { exitCode: 2 });
        const reply = await openAgentChannel().call('answer_agent', input, 30);
        if (!reply.ok) throw new CliError(reply.text.replace(/^Refused: /, ''), { exitCode: 2 });
        process.stdout.write(`${reply.text}\n`);
      }),
    );
  agent
    .command('check-messages')
    .description(CONVERSATION_TOOL_DESCRIPTIONS.check_messages)
    .action(
      runCliAction('agent check-messages', () => {
        const pending = openAgentChannel().readInbox();
        if (pending.length === 0) {
          process.stdout.write('No questions are waiting for you.\n');
          return;
        }
        for (const question of pending)
          process.stdout.write(
            `${formatIncomingQuestion(question, `\`flotilla agent answer --id ${question.conversationID} --text <answer>\``)}\n\n`,
          );
      }),
    );
  agent
    .command('listen')
    .description('wait for the next question another agent asks you; print it as JSON')
    .option('--timeout <seconds>', 'stop waiting after this many seconds (default: until one comes)')
    .action(
      runCliAction('agent listen', async (options: { timeout?: string }) => {
        const seconds = options.timeout === undefined ? null : Number(options.timeout);
        if (seconds !== null && !(Number.isFinite(seconds) && seconds > 0))
          throw new CliError(`--timeout: expected a positive number of seconds, got '${options.timeout}'`, {
            exitCode: 2,
          });
        const deadline = seconds === null ? Number.POSITIVE_INFINITY : Date.now() + seconds * 1000;
        const channel = openAgentChannel();
        while (Date.now() < deadline) {
          const [first] = channel.readInbox();
          if (first !== undefined) {
            process.stdout.write(
              `${JSON.stringify({ conversationId: first.conversationID, from: first.from, question: first.question })}\n`,
            );
            return;
          }
          await sleep(250);
        }
        process.stdout.write(`No question within ${seconds} s.\n`);
      }),
    );
}
