/** The runtime contract on the Gemini runtime: the real gemini-cli, in the OS sandbox, on the scripted Gemini endpoint. */
import { join } from 'node:path';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../../src/model-server/index.ts';
import { createGeminiRuntime } from '../../../src/runtimes/gemini/create-gemini-runtime.ts';
import { createSessionLogFactory } from '../../../src/session-log/create-session-log-factory.ts';
import { createSecretRedactor } from '../../../src/session-log/redact-secrets.ts';
import {
  CONTRACT_PLANTED_SECRET,
  CONTRACT_SECRET_VALUE,
  describeRuntimeContract,
} from '../../support/runtime-contract/runtime-contract-suite.ts';
import { buildContractScenario, buildContractSteps } from '../../support/runtime-contract-steps.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

// Usage comes from the `result` event that ends each gemini-cli turn: live once per turn.
const CAPABILITIES = {
  reportsUsage: true,
  reportsLiveUsage: true,
  asksQuestions: true,
  recordsNotes: true,
  asksAgents: true,
};

describeRuntimeContract('gemini', CAPABILITIES, async ({ repo, logsDir }) => {
  const servers: ModelServer[] = [];
  const logger = createRecordingLogger();
  return {
    async runtimeFor(script, options = {}) {
      const server = await createModelServer(
        buildContractScenario(
          script,
          buildContractSteps(script, (command) => ({
            type: 'tool_use',
            name: 'run_shell_command',
            input: { command, description: 'contract step' },
          })),
        ),
      );
      servers.push(server);
      return createGeminiRuntime({
        sandbox: createTestSandbox(),
        repoRoot: repo.root,
        defaultBranch: 'main',
        logger,
        stateDir: join(repo.root, '.flotilla', 'gemini'),
        model: 'gemini-2.5-flash',
        baseEnv: { ...process.env, GEMINI_API_KEY: 'dummy', GITHUB_TOKEN: CONTRACT_PLANTED_SECRET },
        extraEnv: { GOOGLE_GEMINI_BASE_URL: server.url },
        setupCommand: 'none',
        maxAgentDuration: options.maxAgentDuration ?? 120,
        logging: { agentSessions: true, logsDir },
        createSessionLog: createSessionLogFactory({
          logsDir,
          enabled: true,
          logger,
          redact: createSecretRedactor({ CONTRACT_TOKEN: CONTRACT_SECRET_VALUE }),
        }),
        runtime: 'scripted',
      });
    },
    async cleanup() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
});
