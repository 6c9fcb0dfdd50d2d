import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineHarness, type EngineHarness } from '../../test/support/engine-harness.ts';
import { pause, waitFor } from '../../test/support/tui/wait-for.ts';
import { buildHangingRun } from '../runtimes/scripted/build-scripted-runs.ts';
import { DashboardApp } from './dashboard-app.tsx';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createStreamBuffers, type StreamBuffers } from './streams/create-stream-buffers.ts';

let harness: EngineHarness | null = null;
let streams: StreamBuffers | null = null;
let unmount: (() => void) | null = null;
afterEach(async () => {
  unmount?.();
  streams?.close();
  await harness?.engine.stop();
  harness = null;
  streams = null;
  unmount = null;
});

describe('DashboardApp on the real engine (in-memory provider, scripted adapter)', () => {
  it('shows a dispatched run with its live output, cancels it with x, and quits with q', async () => {
    harness = createEngineHarness({
      script: { implementor: [buildHangingRun({ output: ['hello from the agent\n', 'still working\n'] })] },
    });
    const { engine, provider } = harness;
    provider.control.addWorkItem({ title: 'Task from the tracker', status: 'pending' });
    streams = createStreamBuffers(engine, { notifyIntervalMs: 5 });
    let stopped = 0;
    const deps: DashboardDeps = {
      engine,
      streams,
      getReviewHistory: async () => ({ reviews: [], inlineComments: [] }),
      readTextFile: async () => '',
      repositoryLabel: 'in-memory',
      logFilePath: '/tmp/flotilla.log',
      start: () => engine.start(),
      stop: async () => {
        stopped += 1;
        await engine.stop();
      },
      forceExit: () => {},
    };
    const instance = render(<DashboardApp deps={deps} />);
    unmount = instance.unmount;
    const frame = () => instance.lastFrame() ?? '';
    const until = (text: string) =>
      waitFor(() => frame().includes(text), text).catch((error: Error) => {
        throw new Error(`${error.message}\n--- last frame ---\n${frame()}`);
      });

    await until('Task from the tracker');
    await until('AGENTS (1)');
    await until('still working');
    expect(frame()).toContain('#1 Task from the tracker');

    instance.stdin.write('x');
    await until('Cancel the implementor on #1?');
    await pause(15);
    instance.stdin.write('y');
    await waitFor(
      () => engine.getState().workItems['1']?.status === 'blocked',
      'the item is parked as blocked',
    );
    await until('NEEDS YOU (1)');
    await until('BLOCKED');
    expect(engine.schedulerStatus().active).toBe(0);

    instance.stdin.write('q');
    await waitFor(() => stopped === 1, 'stop()');
  });
});
