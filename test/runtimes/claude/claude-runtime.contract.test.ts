/** The runtime contract on the Claude runtime: the real SDK binary answered by the scripted model server. */
import { join } from 'node:path';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../../src/model-server/index.ts';
import { ASK_HUMAN_TOOL } from '../../../src/runtimes/claude/create-ask-human-tool.ts';
import { createClaudeAdapter } from '../../../src/runtimes/claude/create-claude-adapter.ts';
import { createSessionLogFactory } from '../../../src/session-log/create-session-log-factory.ts';
import { createSecretRedactor } from '../../../src/session-log/redact-secrets.ts';
import {
  CONTRACT_PLANTED_SECRET,
  CONTRACT_SECRET_VALUE,
  describeRuntimeContract,
} from '../../support/runtime-contract/runtime-contract-suite.ts';
import { buildContractScenario, buildContractSteps } from '../../support/runtime-contract-steps.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

const AGENT_FILE = (tools: string) =>
  `---\ndescription: contract agent\ntools: ${tools}\nmodel: inherit\n---\nYou are a contract agent.\n`;

const CAPABILITIES = {
  reportsUsage: true,
  reportsLiveUsage: true,
  asksQuestions: true,
  recordsNotes: true,
  asksAgents: true,
};

describeRuntimeContract('claude', CAPABILITIES, async ({ repo, logsDir }) => {
  await repo.commit('agents', {
    '.claude/agents/planner.md': AGENT_FILE('Read, Grep, Glob'),
    '.claude/agents/implementor.md': AGENT_FILE('Read, Write, Edit, Bash'),
    '.claude/agents/reviewer.md': AGENT_FILE('Read, Grep, Glob'),
    '.claude/agents/investigate.md': AGENT_FILE('Read, Grep, Glob, Bash'),
    '.claude/agents/refine.md': AGENT_FILE('Read, Grep, Glob, Bash'),
  });
  const servers: ModelServer[] = [];
  const logger = createRecordingLogger();
  return {
    async runtimeFor(script, options = {}) {
      const server = await createModelServer(
        buildContractScenario(
          script,
          buildContractSteps(
            script,
            (command) => ({ type: 'tool_use', name: 'Bash', input: { command, description: 'Run' } }),
            // Claude agents ask here through the in-process ask_human tool (the structured output's
            // `outcome: 'questions'` is covered by claude-adapter-questions.test.ts).
            (questions) => ({ content: [{ type: 'tool_use', name: ASK_HUMAN_TOOL, input: { questions } }] }),
            // Flotilla's note tools on the same in-process MCP server.
            ({ tool, input }) => ({ type: 'tool_use', name: `mcp__flotilla__${tool}`, input }),
          ),
        ),
      );
      servers.push(server);
      return createClaudeAdapter({
        repoRoot: repo.root,
        defaultBranch: 'main',
        contextPaths: [],
        // The bash validator has its own tests; here every command the script runs is allowed.
        bashValidatorHook: async () => ({}),
        // Read-only modes: the validator lets every command through and the OS sandbox is what refuses
        // (the read-only validator's refusals have their own tests: build-run-guards.test.ts).
        ...(options.readOnlyModes === true && {
          readOnlyBashValidatorHook: async () => ({}),
          sandbox: createTestSandbox(),
        }),
        logger,
        setupCommand: 'none',
        stateDir: join(logsDir, 'state'),
        maxAgentDuration: options.maxAgentDuration ?? 120,
        logging: { agentSessions: true, logsDir },
        createSessionLog: createSessionLogFactory({
          logsDir,
          enabled: true,
          logger,
          redact: createSecretRedactor({ CONTRACT_TOKEN: CONTRACT_SECRET_VALUE }),
        }),
        baseEnv: { ...process.env, GITHUB_TOKEN: CONTRACT_PLANTED_SECRET },
        extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
      });
    },
    async cleanup() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
});
