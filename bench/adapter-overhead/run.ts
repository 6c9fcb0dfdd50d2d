/**
 * Adapter overhead: 10 implementor sessions through the Claude adapter (worktree, context assembly, agent
 * definition, hooks, validation, cleanup; setup command `none`) vs 10 bare `query()` calls answering the
 * same one-step script, both against the scripted model server. Prints medians and the ratio.
 * Run: npm run bench:adapter
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { assembleAgentContext } from '../../src/engine/context-assembly/assemble-agent-context.ts';
import { buildOutputJsonSchema } from '../../src/engine/runtime-contract/index.ts';
import { buildInitialEngineState } from '../../src/engine/state-store/engine-state.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { buildModelServerEnv, createModelServer } from '../../src/model-server/index.ts';
import { createInMemoryProvider } from '../../src/providers/in-memory/create-in-memory-provider.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import { createTempGitRepo } from '../../src/test-support/create-temp-git-repo.ts';

const RUNS = Number(process.env.RUNS ?? 10);
const OUTPUT = { role: 'implementor', outcome: 'blocked', summary: 'Nothing to do.' };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const server = await createModelServer({
    name: 'one-step',
    routes: [{ name: 'any', steps: [{ structuredOutput: OUTPUT }] }],
  });
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/implementor.md':
      '---\ndescription: bench\ntools: Read, Write, Edit, Bash\n---\nYou implement.\n',
    '.claude/CLAUDE.md': 'Conventions.\n',
  });
  const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-bench-'));
  const provider = createInMemoryProvider();
  const item = provider.control.addWorkItem({ title: 'Bench item', body: 'Do nothing.', status: 'ready' });
  const adapter = createClaudeAdapter({
    repoRoot: repo.root,
    defaultBranch: 'main',
    contextPaths: ['.claude/CLAUDE.md'],
    bashValidatorHook: createBashValidatorHook(),
    logger: silentLogger,
    setupCommand: 'none',
    stateDir,
    maxAgentDuration: 120,
    logging: { agentSessions: false, logsDir: join(stateDir, 'logs') },
    extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' },
  });
  const contextDeps = {
    getState: () => buildInitialEngineState({ workItems: { [item.id]: item } }),
    workItemReader: provider.workItemReader,
    revisionReader: provider.revisionReader,
    specReader: provider.specReader,
  };
  const bareEnv = buildModelServerEnv({ baseUrl: server.url, stateDir: join(stateDir, 'bare') });

  async function throughAdapter(): Promise<number> {
    const started = performance.now();
    // Context assembly runs on the engine's side of the contract now; it is still part of the overhead.
    const params = await assembleAgentContext(
      {
        role: 'implementor',
        sessionID: crypto.randomUUID(),
        workItemID: item.id,
        branchName: `flotilla/${item.id}`,
      },
      contextDeps,
    );
    const handle = await adapter.startAgent(params);
    await handle.result;
    return performance.now() - started;
  }

  async function bare(): Promise<number> {
    const started = performance.now();
    for await (const message of query({
      prompt: `## Work Item #${item.id} — Bench item\n\nDo nothing.\n`,
      options: {
        cwd: repo.root,
        env: bareEnv,
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        settingSources: [],
        persistSession: false,
        outputFormat: { type: 'json_schema', schema: buildOutputJsonSchema('implementor') },
      },
    })) {
      if (
        message.type === 'result' &&
        (message.subtype !== 'success' || message.structured_output === undefined)
      ) {
        throw new Error('bare session returned no structured output');
      }
    }
    return performance.now() - started;
  }

  // Warm-up: the first session after install pays one-off costs.
  await bare();
  await throughAdapter();
  const adapterTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    bareTimes.push(await bare());
    adapterTimes.push(await throughAdapter());
  }
  await server.close();
  await repo.cleanup();
  await rm(stateDir, { recursive: true, force: true });

  const adapterMedian = median(adapterTimes);
  const bareMedian = median(bareTimes);
  console.log('adapter-overhead');
  console.log(
    `  bare query():   median ${bareMedian.toFixed(0)} ms  (${bareTimes.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  Claude adapter: median ${adapterMedian.toFixed(0)} ms  (${adapterTimes.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  overhead: ${(adapterMedian - bareMedian).toFixed(0)} ms = ${(((adapterMedian - bareMedian) / bareMedian) * 100).toFixed(1)}% (ratio ${(adapterMedian / bareMedian).toFixed(3)})`,
  );
}

await main();
