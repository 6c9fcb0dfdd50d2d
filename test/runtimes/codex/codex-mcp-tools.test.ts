/**
 * Issue #28 §2 and §3 on Codex through its MCP configuration: the engine drives the real codex binary (the
 * scripted Responses endpoint on 127.0.0.1) for two implementors at once and their reviewers; codex starts
 * the run's `flotilla agent mcp` server from `[mcp_servers.flotilla]` and the model calls its tools. A stores
 * a memory and asks B through `ask_agent`; B finds the question with `check_messages` and answers with
 * `answer_agent`. The memory lands in the repository's memories (a real SQLite file written by persistence)
 * and appears in the later reviewers' prompts; A gets B's answer. No `flotilla agent` command is run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/create-engine.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import {
  createModelServer,
  type ModelServer,
  type RequestView,
  type Scenario,
  type StepReply,
} from '../../../src/model-server/index.ts';
import { createCodexRuntime } from '../../../src/runtimes/codex/create-codex-runtime.ts';
import type { Database, EngineStatePersistence } from '../../../src/storage/index.ts';
import { createBudgetedEngine } from '../../support/create-budgeted-engine.ts';
import { createInMemoryProvider } from '../../support/in-memory-provider/create-in-memory-provider.ts';
import { APPROVE } from '../../support/run-scenarios.ts';
import { createTempGitRepo, type TempGitRepo } from '../../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

const TIMEOUT = 300_000;
const MEMORY = 'The service listens on port 8080 unless PORT is set.';
const PAUSE = 'timeout 0.5 tail -f /dev/null';
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'done' };
const TOOLS = [
  'store_memory',
  'record_decision',
  'log_question',
  'update_summary',
  'ask_agent',
  'check_messages',
  'answer_agent',
];

/** Codex offers the server's tools as the namespace `mcp__flotilla`: the model calls them by it. */
const mcp = (tool: string, input: Record<string, unknown>): StepReply => ({
  content: [{ type: 'tool_use', namespace: 'mcp__flotilla', name: tool, input }],
});
const exec = (cmd: string): StepReply => ({
  content: [{ type: 'tool_use', name: 'exec_command', input: { cmd, yield_time_ms: 30_000 } }],
});
const done = (output: Record<string, unknown>): StepReply => ({ structuredOutput: output });

/** The functions of the `mcp__flotilla` namespace tool in a Responses request. */
function offeredTools(request: RequestView): string[] {
  const tools = Array.isArray(request.body.tools) ? (request.body.tools as Record<string, unknown>[]) : [];
  const namespace = tools.find((tool) => tool.type === 'namespace' && tool.name === 'mcp__flotilla');
  const functions = Array.isArray(namespace?.tools) ? (namespace.tools as { name?: unknown }[]) : [];
  return functions.map((tool) => String(tool.name));
}

interface Seen {
  /** The tools codex offered in A's first request: the tool server's namespace and its functions. */
  tools?: string[];
  answer?: string;
  reviewerPrompts: string[];
  results: string[];
}

/** A: store a memory, ask B (again while B has not joined), then write what it got and complete. */
function agentA(seen: Seen) {
  let phase: 'start' | 'asking' | 'write' | 'done' = 'start';
  return (request: RequestView): StepReply => {
    const result = request.lastToolResult?.text ?? '';
    seen.results.push(`A: ${result.slice(0, 200)}`);
    if (phase === 'start') {
      seen.tools = offeredTools(request);
      phase = 'asking';
      return mcp('store_memory', { topic: 'service port', text: MEMORY });
    }
    if (phase === 'asking') {
      if (result.includes('Port 8080.')) {
        seen.answer = result;
        phase = 'write';
        return exec("printf 'Port 8080.\\n' > reply.txt");
      }
      // B not joined yet (the ask ends at once): a pause, then again.
      if (result.includes('nobody was asked')) return exec(PAUSE);
      return mcp('ask_agent', { to: '2', question: 'Which port?', timeoutSeconds: 120 });
    }
    phase = 'done';
    return done(COMPLETED);
  };
}

/** B: look for a question between short pauses; answer it, write a file and complete. */
function agentB(seen: Seen) {
  let phase: 'check' | 'pause' | 'write' | 'done' = 'check';
  return (request: RequestView): StepReply => {
    const result = request.lastToolResult?.text ?? '';
    seen.results.push(`B: ${result.slice(0, 200)}`);
    if (phase === 'check') {
      const id = /conversation (c-[a-z0-9-]+)/.exec(result)?.[1];
      if (id !== undefined) {
        phase = 'write';
        return mcp('answer_agent', { conversationId: id, answer: 'Port 8080.' });
      }
      phase = 'pause';
      return mcp('check_messages', {});
    }
    if (phase === 'pause') {
      const id = /conversation (c-[a-z0-9-]+)/.exec(result)?.[1];
      if (id !== undefined) {
        phase = 'write';
        return mcp('answer_agent', { conversationId: id, answer: 'Port 8080.' });
      }
      phase = 'check';
      return exec(PAUSE);
    }
    if (phase === 'write') {
      phase = 'done';
      return exec("printf '8080\\n' > port.txt");
    }
    return done(COMPLETED);
  };
}

function scenario(seen: Seen): Scenario {
  const many = (respond: (request: RequestView) => StepReply) =>
    Array.from({ length: 200 }, () => ({ respond }));
  const implementor = 'You are the Implementor of Flotilla';
  return {
    name: 'codex-mcp-tools',
    routes: [
      {
        name: 'a',
        match: { systemIncludes: implementor, firstUserIncludes: 'Objective: serve.' },
        steps: many(agentA(seen)),
      },
      {
        name: 'b',
        match: { systemIncludes: implementor, firstUserIncludes: 'Objective: choose.' },
        steps: many(agentB(seen)),
      },
      {
        name: 'reviewer',
        match: { systemIncludes: 'You are the Reviewer of Flotilla' },
        steps: many((request) => {
          seen.reviewerPrompts.push(request.firstUser);
          return done(APPROVE);
        }),
      },
    ],
  };
}

interface World {
  repo: TempGitRepo;
  server: ModelServer;
  dbDir: string;
  db: Database;
  engine: Engine;
  persistence: EngineStatePersistence;
}

let world: World | null = null;
afterEach(async () => {
  if (world === null) return;
  await world.engine.stop();
  world.db.close();
  await world.server.close();
  await world.repo.cleanup();
  await rm(world.dbDir, { recursive: true, force: true });
  world = null;
});

async function waitUntil(check: () => boolean, what: string, seen: Seen): Promise<void> {
  const deadline = Date.now() + TIMEOUT - 30_000;
  const failed = () =>
    Object.values(world?.engine.getState().agentRuns ?? {}).filter((run) => run.status === 'failed');
  while (!check()) {
    if (Date.now() > deadline || failed().length > 0)
      throw new Error(
        [
          `gave up waiting for ${what}`,
          ...failed().map((run) => `${run.role} failed: ${run.error ?? ''}`),
          `tools: ${JSON.stringify(seen.tools)}`,
          ...seen.results.slice(-20),
        ].join('\n'),
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("Flotilla's tools on codex through its MCP configuration", () => {
  it(
    'a memory stored through the MCP tool appears in later prompts; ask_agent gets the answer',
    async () => {
      const repo = await createTempGitRepo();
      await repo.commit('base', { 'README.md': '# Sample\n' });
      const seen: Seen = { reviewerPrompts: [], results: [] };
      const server = await createModelServer(scenario(seen));
      const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
      const logger = createRecordingLogger();
      const dbDir = await mkdtemp(join(tmpdir(), 'flotilla-codex-mcp-'));
      const { engine, persistence, db } = createBudgetedEngine({
        dbPath: join(dbDir, 'flotilla.db'),
        provider,
        caps: {},
        logger,
        maxConcurrentAgents: 2,
        adapter: () =>
          createCodexRuntime({
            sandbox: createTestSandbox(),
            repoRoot: repo.root,
            defaultBranch: 'main',
            logger,
            setupCommand: 'none',
            stateDir: join(repo.root, '.flotilla', 'codex'),
            model: 'scripted',
            provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: 'SCRIPTED_KEY' },
            baseEnv: { ...process.env, SCRIPTED_KEY: 'dummy' },
            maxAgentDuration: 240,
            logging: { agentSessions: true, logsDir: join(repo.root, '.flotilla', 'logs') },
            runtime: 'scripted',
          }),
      });
      world = { repo, server, dbDir, db, engine, persistence };
      provider.control.addWorkItem({ title: 'Serve', body: 'Objective: serve.', status: 'pending' });
      provider.control.addWorkItem({ title: 'Choose', body: 'Objective: choose.', status: 'pending' });
      await engine.start();
      const approved = (id: string) => engine.getState().workItems[id]?.status === 'approved';
      await waitUntil(() => approved('1') && approved('2'), 'both items approved', seen);

      // Codex offered the server's tools to the model in its first request (it waits for the server).
      expect([...(seen.tools ?? [])].sort()).toEqual([...TOOLS].sort());
      // The memory landed in the repository's memories, recorded as the implementor's on codex.
      expect(persistence.memories.list().map((memory) => [memory.topic, memory.text, memory.source])).toEqual(
        [['service port', MEMORY, 'implementor']],
      );
      // And both reviewers' prompts, written after it, list it.
      expect(seen.reviewerPrompts).toHaveLength(2);
      for (const prompt of seen.reviewerPrompts) {
        expect(prompt).toContain('## Memories');
        expect(prompt).toContain(MEMORY);
      }
      // A asked B through ask_agent and got B's answer (given through answer_agent).
      expect(seen.answer).toContain('Port 8080.');
      const answered = persistence.conversations.list().filter((c) => c.status === 'answered');
      expect(answered.map((c) => [c.question, c.answer, c.from.workItemID])).toEqual([
        ['Which port?', 'Port 8080.', '1'],
      ]);
    },
    TIMEOUT,
  );
});
