import { describe, expect, it } from 'vitest';
import type { PhaseTiming } from '../../engine/runtime-contract/index.ts';
import { createPhaseClock } from './create-phase-clock.ts';

describe('createPhaseClock', () => {
  it('reports timed steps and the laps between them, under the run’s session id', async () => {
    const timings: PhaseTiming[] = [];
    const clock = createPhaseClock('s-1', (timing) => timings.push(timing));
    expect(await clock.time('worktree-create', async () => 'made')).toBe('made');
    clock.lap('session-setup');
    clock.lap('spawn-to-first-message');

    expect(timings.map(({ sessionID, phase }) => `${sessionID} ${phase}`)).toEqual([
      's-1 worktree-create',
      's-1 session-setup',
      's-1 spawn-to-first-message',
    ]);
    for (const { ms } of timings) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('reports a step that throws, and rethrows its error', async () => {
    const phases: string[] = [];
    const clock = createPhaseClock('s-2', ({ phase }) => phases.push(phase));
    await expect(
      clock.time('cleanup', async () => {
        throw new Error('git failed');
      }),
    ).rejects.toThrow('git failed');
    expect(phases).toEqual(['cleanup']);
  });

  it('never lets a failing listener fail the run it times', async () => {
    const clock = createPhaseClock('s-3', () => {
      throw new Error('listener bug');
    });
    await expect(clock.time('state-dir', async () => 1)).resolves.toBe(1);
    expect(() => clock.lap('session-setup')).not.toThrow();
  });

  it('without a listener runs the step and times nothing', async () => {
    const clock = createPhaseClock('s-4', undefined);
    await expect(clock.time('state-dir', async () => 'done')).resolves.toBe('done');
    expect(() => clock.lap('session-setup')).not.toThrow();
  });
});
