/**
 * Runs a new engine adopts (EngineConfig.adoptedRuns, src/engine/adopt-runs.ts; cluster mode, issue #33):
 * a run a previous process started and that goes on elsewhere is waited on, not dispatched again — its item
 * in progress is not taken for orphaned, the runtime is handed the params the run was started with, and its
 * result is applied once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRun } from '../../src/domain/index.ts';
import type { AgentStartParams } from '../../src/engine/runtime-contract/index.ts';
import { buildImplementorResult } from '../../src/runtimes/scripted/build-scripted-results.ts';
import { buildFailureRun, buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
import { createEngineHarness, type EngineHarness } from '../support/engine-harness.ts';

let harness: EngineHarness | null = null;
afterEach(async () => {
  await harness?.engine.stop();
  harness = null;
});

const ADOPTED: AgentRun = {
  sessionID: 'adopted-1',
  role: 'implementor',
  workItemID: '1',
  branchName: 'flotilla/1',
  status: 'running',
  logFilePath: null,
  error: null,
  requestedAt: 1_000,
  endedAt: null,
  usage: null,
  cancelRequestedBy: null,
};
const PARAMS = {
  role: 'implementor',
  sessionID: 'adopted-1',
  workItemID: '1',
  branchName: 'flotilla/1',
  prompt: 'the prompt the previous controller assembled',
} as AgentStartParams;

describe('engine: adopted runs', () => {
  it('waits on a run a previous process left going: no orphan, no second dispatch, its result applied', async () => {
    const started: AgentStartParams[] = [];
    const h = createEngineHarness({
      script: {
        implementor: (params) => {
          started.push(params);
          return buildResultRun(buildImplementorResult());
        },
      },
      config: { adoptedRuns: [{ run: ADOPTED, params: PARAMS }] },
    });
    harness = h;
    h.provider.control.addWorkItem({ title: 'Left running', status: 'in-progress' });
    await h.engine.start();
    await h.settle();

    expect(started).toEqual([PARAMS]);
    expect(h.events.filter((event) => event.type === 'implementorRequested')).toEqual([]);
    expect(h.runs('implementor')).toEqual([
      expect.objectContaining({ sessionID: 'adopted-1', status: 'completed', requestedAt: 1_000 }),
    ]);
    const statuses = h.events.flatMap((event) =>
      event.type === 'workItemChanged' && event.workItemID === '1' ? [event.newStatus] : [],
    );
    expect(statuses).toEqual(['in-progress', 'review']);
  });

  it('an adopted run that ends failed sends its item back like any failed run', async () => {
    const h = createEngineHarness({
      script: { implementor: [buildFailureRun('error', 'the worker lost it')] },
      // Its retry waits a minute: the assertion sees the one attempt, not a retry that already ran.
      config: {
        adoptedRuns: [{ run: ADOPTED, params: PARAMS }],
        scheduler: { retryBaseDelay: 60, retryMaxDelay: 60 },
      },
    });
    harness = h;
    h.provider.control.addWorkItem({ title: 'Left running', status: 'in-progress' });
    await h.engine.start();
    await h.waitFor((state) => state.agentRuns['adopted-1']?.status === 'failed', 'the adopted run to fail');
    expect(h.engine.getState().failures['implementor:1']?.attempts).toBe(1);
  });
});
