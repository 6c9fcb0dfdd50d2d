/** The runtime contract on the CLI runtime: the fake agent CLI as the `claude` preset's program, a real process. */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createCliRuntime } from '../../../src/runtimes/cli/create-cli-runtime.ts';
import { createSessionLogFactory } from '../../../src/session-log/create-session-log-factory.ts';
import { createSecretRedactor } from '../../../src/session-log/redact-secrets.ts';
import type { FakeAgentRound, FakeAgentStep } from '../../support/cli-runtime/fake-agent-cli.ts';
import { FAKE_AGENT_PROGRAM } from '../../support/cli-runtime-fixture.ts';
import {
  agentCommandLine,
  CONTRACT_PLANTED_SECRET,
  CONTRACT_SECRET_VALUE,
  conversationCommandLine,
  describeRuntimeContract,
} from '../../support/runtime-contract/runtime-contract-suite.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

// The `claude` preset: the fake agent reports its model request in claude's stream-json shapes, so usage is
// live and final. Presets whose tool reports none (aider, gemini, opencode) have neither: see
// test/runtimes/cli/cli-runtime-usage.test.ts.
const CAPABILITIES = {
  reportsUsage: true,
  reportsLiveUsage: true,
  asksQuestions: true,
  recordsNotes: true,
  asksAgents: true,
};
/** The agent's one model request, as the fake agent reports it. */
const REQUEST = { model: 'claude-opus-5', inputTokens: 1_000, outputTokens: 10, costUSD: 0.0042 };

describeRuntimeContract('cli (fake agent)', CAPABILITIES, async ({ repo, logsDir }) => {
  const logger = createRecordingLogger();
  return {
    async runtimeFor(script, options = {}) {
      const { role: _role, ...result } = script.output;
      const { asks } = script;
      const signal = asks ? { status: 'questions', questions: asks.questions } : { status: 'done', result };
      const steps: FakeAgentStep[] = [
        { request: REQUEST },
        ...(script.say !== undefined ? [{ print: script.say }] : []),
        // Flotilla's tools: the `flotilla agent` commands on the agent's PATH.
        ...(script.notes !== undefined ? [{ run: agentCommandLine(script.notes) }] : []),
        // Questions between agents: `flotilla agent listen|ask|answer` too.
        ...(script.converses !== undefined ? [{ run: conversationCommandLine(script.converses) }] : []),
        ...(script.shell !== undefined ? [{ run: script.shell }] : []),
        ...(script.hang ? [] : [{ signal }]),
      ];
      // An asking agent: the resumed session plays the second round only when its prompt holds the answer
      // (otherwise no round plays, no signal is written, and the run fails).
      const resumed: FakeAgentStep[] = [
        { request: REQUEST },
        { run: asks?.thenShell ?? 'true' },
        { signal: { status: 'done', result } },
      ];
      const rounds: FakeAgentRound[] =
        asks === undefined
          ? [{ steps }]
          : [
              { promptIncludes: asks.answer, steps: resumed },
              { promptIncludes: '## Work Item #7', steps },
            ];
      // In the OS sandbox the script must be readable inside (the real /tmp is hidden): under the
      // repository's .git, which the sandbox shows read-only; the calls go to the sandbox's private /tmp.
      const sandboxed = options.readOnlyModes === true;
      const scriptPath = join(sandboxed ? join(repo.root, '.git') : logsDir, `script-${randomUUID()}.json`);
      await writeFile(scriptPath, JSON.stringify({ rounds }));
      return createCliRuntime({
        // Read-only modes run only in the OS sandbox (it binds the worktree read-only).
        ...(sandboxed && { sandbox: createTestSandbox() }),
        repoRoot: repo.root,
        defaultBranch: 'main',
        logger,
        stateDir: join(logsDir, 'state'),
        preset: 'claude',
        program: FAKE_AGENT_PROGRAM,
        setupCommand: 'none',
        maxAgentDuration: options.maxAgentDuration ?? 120,
        logging: { agentSessions: true, logsDir },
        createSessionLog: createSessionLogFactory({
          logsDir,
          enabled: true,
          logger,
          redact: createSecretRedactor({ CONTRACT_TOKEN: CONTRACT_SECRET_VALUE }),
        }),
        baseEnv: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          FAKE_AGENT_SCRIPT: scriptPath,
          GITHUB_TOKEN: CONTRACT_PLANTED_SECRET,
          ...(sandboxed && { FAKE_AGENT_CALLS: '/tmp/fake-agent-calls.jsonl' }),
        },
        passThroughEnv: ['FAKE_AGENT_SCRIPT', ...(sandboxed ? ['FAKE_AGENT_CALLS'] : [])],
      });
    },
    async cleanup() {},
  };
});
