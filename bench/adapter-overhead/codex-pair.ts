import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codex } from '@openai/codex-sdk';
import { silentLogger } from '../../src/logging/logger.ts';
import { buildCodexServerConfig, createModelServer } from '../../src/model-server/index.ts';
import { buildCodexOutputSchema } from '../../src/runtimes/codex/build-codex-output-schema.ts';
import { createCodexRuntime } from '../../src/runtimes/codex/create-codex-runtime.ts';
import type { Sandbox } from '../../src/sandbox/sandbox-types.ts';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import {
  BENCH_PROMPT,
  BLOCKED_OUTPUT,
  createBareLaps,
  createBenchSandbox,
  createBenchWorktrees,
  expectBlocked,
  implementorParams,
  type MakeOverheadPair,
} from './overhead-pair.ts';

const SCRIPTED_KEY = 'FLOTILLA_SCRIPTED_API_KEY';

/** The Codex runtime (worktree, per-run CODEX_HOME, instructions, cleanup) vs a bare codex-sdk thread. */
export const codexPair: MakeOverheadPair = async ({ onPhase, prepareAhead }) => {
  const server = await createModelServer({
    name: 'one-step',
    routes: [{ name: 'any', steps: [{ structuredOutput: BLOCKED_OUTPUT }] }],
  });
  const repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# bench\n', 'CONVENTIONS.md': 'Conventions.\n' });
  const worktrees = createBenchWorktrees(repo.root, prepareAhead);
  // Not under the temporary directory: there codex refuses to create its sandbox helper when bubblewrap is
  // on PATH, and the unsandboxed runtime reports that as the run's failure (docs/sandbox-facts.md).
  const stateDir = await mkdtemp(
    join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'flotilla-bench-codex-'),
  );
  const makeRuntime = (sandbox?: Sandbox) =>
    createCodexRuntime({
      repoRoot: repo.root,
      defaultBranch: 'main',
      worktrees,
      logger: silentLogger,
      stateDir,
      contextPaths: ['CONVENTIONS.md'],
      model: 'scripted',
      provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: SCRIPTED_KEY },
      baseEnv: { ...process.env, [SCRIPTED_KEY]: 'bench' },
      setupCommand: 'none',
      maxAgentDuration: 120,
      onPhase,
      logging: { agentSessions: false, logsDir: join(stateDir, 'logs') },
      ...(sandbox !== undefined && { sandbox }),
    });
  const runtimes = { off: makeRuntime(), on: makeRuntime(createBenchSandbox()) };
  // The bare side: one CODEX_HOME with the same scripted provider, made once.
  const bareHome = join(stateDir, 'bare-home');
  const { configToml, env } = buildCodexServerConfig({
    baseUrl: server.url,
    codexHome: bareHome,
    model: 'scripted',
  });
  await mkdir(bareHome, { recursive: true });
  await writeFile(join(bareHome, 'config.toml'), configToml);
  const outputSchema = buildCodexOutputSchema('implementor');

  return {
    bareLabel: 'a bare codex-sdk thread',
    runtimeLabel: 'the Codex runtime',
    repoRoot: repo.root,
    async bare(cwd, onBarePhase) {
      const lap = createBareLaps('bare', onBarePhase);
      const thread = new Codex({ env }).startThread({
        workingDirectory: cwd,
        sandboxMode: 'workspace-write',
        approvalPolicy: 'never',
        networkAccessEnabled: false,
        webSearchMode: 'disabled',
      });
      const { events } = await thread.runStreamed(BENCH_PROMPT, { outputSchema });
      let first = true;
      let finalResponse = '';
      for await (const event of events) {
        if (first) lap('spawn-to-first-message');
        first = false;
        if (event.type === 'item.completed' && event.item.type === 'agent_message')
          finalResponse = event.item.text;
        if (event.type === 'turn.completed' || event.type === 'turn.failed') lap('first-message-to-result');
      }
      lap('result-to-exit');
      expectBlocked(JSON.parse(finalResponse) as { role: string; outcome?: string });
    },
    runsCommands: false,
    async throughRuntime({ sandboxed }) {
      const handle = await runtimes[sandboxed ? 'on' : 'off'].startAgent(implementorParams());
      expectBlocked(await handle.result);
    },
    idle: () => worktrees.idle(),
    async close() {
      await worktrees.settle();
      await server.close();
      await repo.cleanup();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
};
