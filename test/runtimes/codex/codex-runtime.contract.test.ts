/** The runtime contract on the Codex runtime: the real bundled codex binary on the scripted Responses endpoint. */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../../src/model-server/index.ts';
import { createCodexRuntime } from '../../../src/runtimes/codex/create-codex-runtime.ts';
import { createSessionLogFactory } from '../../../src/session-log/create-session-log-factory.ts';
import { createSecretRedactor } from '../../../src/session-log/redact-secrets.ts';
import {
  CONTRACT_PLANTED_SECRET,
  CONTRACT_SECRET_VALUE,
  describeRuntimeContract,
} from '../../support/runtime-contract/runtime-contract-suite.ts';
import { buildContractScenario, buildContractSteps } from '../../support/runtime-contract-steps.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

const SCRIPTED_KEY = 'FLOTILLA_SCRIPTED_API_KEY';

const CAPABILITIES = {
  reportsUsage: true,
  reportsLiveUsage: true,
  asksQuestions: true,
  recordsNotes: true,
  asksAgents: true,
};

describeRuntimeContract('codex', CAPABILITIES, async ({ repo, logsDir }) => {
  const servers: ModelServer[] = [];
  // Read-only modes run codex's own `read-only` sandbox inside Flotilla's, whose helper codex refuses to
  // create under the temporary directory: their CODEX_HOME lies outside it (docs/sandbox-facts.md, Codex).
  const outsideTmp: string[] = [];
  const stateDirOutsideTmp = () => {
    const dir = mkdtempSync('/var/tmp/flotilla-codex-');
    outsideTmp.push(dir);
    return dir;
  };
  const logger = createRecordingLogger();
  return {
    async runtimeFor(script, options = {}) {
      const server = await createModelServer(
        buildContractScenario(
          script,
          // The command's output is awaited up to 30 s (codex's default yield is shorter, and several
          // `flotilla agent` calls in a row take seconds on a loaded machine).
          buildContractSteps(script, (cmd) => ({
            type: 'tool_use',
            name: 'exec_command',
            input: { cmd, yield_time_ms: 30_000 },
          })),
        ),
      );
      servers.push(server);
      return createCodexRuntime({
        sandbox: createTestSandbox(),
        repoRoot: repo.root,
        defaultBranch: 'main',
        logger,
        // Under the repository: codex refuses to make its helper binaries under a temporary directory.
        stateDir:
          options.readOnlyModes === true ? stateDirOutsideTmp() : join(repo.root, '.flotilla', 'codex'),
        model: 'scripted',
        provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: SCRIPTED_KEY },
        baseEnv: { ...process.env, [SCRIPTED_KEY]: 'dummy', GITHUB_TOKEN: CONTRACT_PLANTED_SECRET },
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
      for (const dir of outsideTmp) rmSync(dir, { recursive: true, force: true });
    },
  };
});
