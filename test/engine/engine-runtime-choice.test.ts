import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import type {
  RuntimeAdapter,
  RuntimeAdapters,
  RuntimeAvailability,
} from '../../src/engine/runtime-contract/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import {
  buildImplementorResult,
  buildReviewerResult,
} from '../../src/runtimes/scripted/build-scripted-results.ts';
import { buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
import {
  createScriptedAdapter,
  type ScriptedAdapter,
} from '../../src/runtimes/scripted/create-scripted-adapter.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';

/** A scripted runtime under a name, whose availability the test sets. */
function namedRuntime(name: string) {
  const scripted: ScriptedAdapter = createScriptedAdapter({
    implementor: () => buildResultRun(buildImplementorResult()),
    reviewer: () => buildResultRun(buildReviewerResult('approve')),
  });
  let availability: RuntimeAvailability = { available: true };
  let checks = 0;
  const adapter: RuntimeAdapter = {
    runtime: name,
    startAgent: (params) => scripted.startAgent(params),
    cancelAgent: (sessionID) => scripted.cancelAgent(sessionID),
    isAvailable: () => {
      checks += 1;
      return availability;
    },
  };
  return {
    adapter,
    scripted,
    setAvailability: (next: RuntimeAvailability) => {
      availability = next;
    },
    checks: () => checks,
  };
}

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.stop();
  engine = null;
});

function startEngine(provider: InMemoryProvider, adapters: RuntimeAdapters, maxAttempts = 3): Engine {
  engine = createEngine({
    provider,
    createRuntimeAdapters: () => adapters,
    logger: createRecordingLogger(),
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 5,
    scheduler: { retryBaseDelay: 0.01, retryMaxDelay: 0.05, maxAttempts },
  });
  return engine;
}

/** Polls until quiet; every revision's checks pass, so items in review get their reviewer. */
async function settle(e: Engine, provider: InMemoryProvider): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    await e.pollNow();
    await e.whenQuiescent();
    for (const item of Object.values(e.getState().workItems)) {
      const revision = item.linkedRevision === null ? undefined : e.getState().revisions[item.linkedRevision];
      if (item.status === 'review' && revision !== undefined && revision.pipeline?.status !== 'success')
        provider.control.setPipeline(revision.id, 'success');
    }
  }
}

function setUp(maxAttempts = 3, reviewerOnCodex = false) {
  const claude = namedRuntime('claude');
  const codex = namedRuntime('codex');
  const known = { claude: claude.adapter, codex: codex.adapter };
  const adapters: RuntimeAdapters = {
    planner: claude.adapter,
    implementor: claude.adapter,
    reviewer: reviewerOnCodex ? codex.adapter : claude.adapter,
    choices: {
      names: Object.keys(known),
      get: (name) => (Object.hasOwn(known, name) ? known[name as keyof typeof known] : null),
    },
  };
  const provider = createInMemoryProvider();
  const e = startEngine(provider, adapters, maxAttempts);
  const runsOf = (id: string) =>
    Object.values(e.getState().agentRuns)
      .filter((run) => run.role !== 'planner' && run.workItemID === id)
      .sort((a, b) => a.requestedAt - b.requestedAt)
      .map((run) => [run.role, run.status, run.runtime ?? null]);
  return { claude, codex, provider, engine: e, runsOf };
}

describe('engine: the runtime of each run (runtime:<name> label, availability at dispatch)', () => {
  it('runs a labelled item on the runtime its label names, and an unlabelled one on the role runtime', async () => {
    const { claude, codex, provider, engine: e, runsOf } = setUp();
    provider.control.addWorkItem({ title: 'On codex', status: 'pending', labels: ['runtime:codex'] });
    provider.control.addWorkItem({ title: 'Default', status: 'pending' });
    await e.start();
    await settle(e, provider);
    expect(runsOf('1')).toEqual([
      ['implementor', 'completed', 'codex'],
      ['reviewer', 'completed', 'codex'],
    ]);
    expect(runsOf('2')).toEqual([
      ['implementor', 'completed', 'claude'],
      ['reviewer', 'completed', 'claude'],
    ]);
    expect(
      codex.scripted.control.sessions().map((s) => ('workItemID' in s.params ? s.params.workItemID : null)),
    ).toEqual(['1', '1']);
    expect(
      claude.scripted.control.sessions().map((s) => ('workItemID' in s.params ? s.params.workItemID : null)),
    ).toEqual(['2', '2']);
    expect(e.getState().workItems['1']?.status).toBe('approved');
  });

  it('refuses an unknown runtime name: nothing runs, the item is blocked with a comment listing the names', async () => {
    const { claude, codex, provider, engine: e, runsOf } = setUp();
    provider.control.addWorkItem({ title: 'Typo', status: 'pending', labels: ['runtime:gpt-9'] });
    await e.start();
    await settle(e, provider);
    expect(runsOf('1')).toEqual([['implementor', 'failed', null]]);
    const run = Object.values(e.getState().agentRuns)[0];
    expect(run?.failureReason).toBe('unavailable');
    expect(claude.scripted.control.sessions()).toEqual([]);
    expect(codex.scripted.control.sessions()).toEqual([]);
    expect(e.getState().workItems['1']?.status).toBe('blocked');
    const comment = provider.control.workItemComments('1').at(-1) ?? '';
    expect(comment).toContain(
      'the implementor run was not started: the label runtime:gpt-9 names no runtime',
    );
    expect(comment).toContain('known: claude, codex');
    expect(comment).toContain('flotilla work transition 1 ready');
    // Not an attempt: nothing counts towards maxAttempts.
    expect(e.getState().failures).toEqual({});
  });

  it('refuses an unavailable runtime without using an attempt, and runs once it is available again', async () => {
    const { codex, provider, engine: e, runsOf } = setUp(1);
    codex.setAvailability({
      available: false,
      problems: ['no OpenAI API key for codex: set CODEX_API_KEY or OPENAI_API_KEY'],
    });
    provider.control.addWorkItem({ title: 'On codex', status: 'pending', labels: ['runtime:codex'] });
    await e.start();
    await settle(e, provider);
    expect(runsOf('1')).toEqual([['implementor', 'failed', null]]);
    expect(codex.scripted.control.sessions()).toEqual([]);
    expect(e.getState().workItems['1']?.status).toBe('blocked');
    expect(provider.control.workItemComments('1').at(-1)).toContain(
      "runtime 'codex' is unavailable: no OpenAI API key for codex: set CODEX_API_KEY or OPENAI_API_KEY",
    );
    expect(e.getState().failures).toEqual({});

    // With maxAttempts 1, a counted attempt would have parked it for good; this one runs.
    codex.setAvailability({ available: true });
    await provider.workItemWriter.transitionStatus('1', 'ready');
    await settle(e, provider);
    expect(runsOf('1')).toEqual([
      ['implementor', 'failed', null],
      ['implementor', 'completed', 'codex'],
      ['reviewer', 'completed', 'codex'],
    ]);
    expect(e.getState().workItems['1']?.status).toBe('approved');
  });

  it("refuses the role's own runtime when unavailable: a refused reviewer blocks the item in review", async () => {
    const { claude, codex, provider, engine: e, runsOf } = setUp(3, true);
    codex.setAvailability({ available: false, problems: ['codex binary not found'] });
    provider.control.addWorkItem({ title: 'Default', status: 'pending' });
    await e.start();
    await settle(e, provider);
    expect(runsOf('1')).toEqual([
      ['implementor', 'completed', 'claude'],
      ['reviewer', 'failed', null],
    ]);
    expect(e.getState().workItems['1']?.status).toBe('blocked');
    const comment = provider.control.workItemComments('1').at(-1) ?? '';
    expect(comment).toContain(
      "the reviewer run was not started: runtime 'codex' is unavailable: codex binary not found",
    );
    expect(comment).toContain('flotilla work transition 1 review');
    expect(claude.checks()).toBe(1);
  });
});
