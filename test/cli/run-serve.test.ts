/**
 * `flotilla run --serve` as a user runs it: a child process in a real repository, agents through the real
 * Claude Agent SDK answered by the scripted model server, the API in the same process — engine events live on
 * `/api/events`, actions that need the engine (cancel) going through it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import { readSseEvents } from '../support/read-sse-events.ts';
import { slowImplementorScenario } from '../support/run-scenarios.ts';
import { startFlotillaProcess, waitForCondition } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const post = (url: string, body: unknown = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('flotilla run --serve', () => {
  it('streams engine events while an item moves, and cancels its agent through the engine', async () => {
    const repo = await fixtures.demoRepository();
    const server = await fixtures.serve(slowImplementorScenario());
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--serve', '127.0.0.1:0'],
      env: { ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
    });
    const apiUrl = () => /flotilla API on (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(run.output())?.[1];
    await waitForCondition(() => apiUrl() !== undefined, 60_000, 'the API line', run.output);
    const base = apiUrl() as string;

    const stream = await readSseEvents(`${base}/api/events`);
    try {
      const itemMoved = (status: string) =>
        stream.events.some(
          (event) =>
            event.event === 'workItemChanged' &&
            (event.data as { workItemID: string; newStatus: string }).workItemID === '1' &&
            (event.data as { newStatus: string }).newStatus === status,
        );
      await waitForCondition(
        () => stream.events.some((event) => event.event === 'implementorStarted'),
        90_000,
        'implementorStarted on /api/events',
        () => `${run.output()}\n${stream.events.map((event) => event.event).join(' ')}`,
      );
      // The planner's item and its move to in-progress came through the same stream, in order, ids from 1.
      expect(itemMoved('in-progress')).toBe(true);
      expect(stream.events.map((event) => Number(event.id))).toEqual(
        stream.events.map((_, index) => index + 1),
      );
      // The tracker routes read the engine's own tracker.
      const shown = (await (await fetch(`${base}/api/work-items/1`)).json()) as { status: string };
      expect(shown.status).toBe('in-progress');

      // Retry does not apply to a running item: refused, naming what is possible.
      const retry = await post(`${base}/api/work-items/1/retry`);
      expect(retry.status).toBe(409);
      expect(((await retry.json()) as { error: { message: string } }).error.message).toMatch(
        /cannot be given retry now; possible: cancel/,
      );
      expect((await post(`${base}/api/work-items/9/cancel`)).status).toBe(404);

      const cancel = await post(`${base}/api/work-items/1/cancel`);
      expect(cancel.status).toBe(202);
      expect(await cancel.json()).toEqual({ workItemID: '1', action: 'cancel', event: 'userCancelledRun' });
      await waitForCondition(
        () => itemMoved('blocked'),
        30_000,
        '#1 blocked after the cancel',
        () => stream.events.map((event) => event.event).join(' '),
      );
      const order = stream.events.map((event) => event.event);
      expect(order.indexOf('userCancelledRun')).toBeGreaterThan(order.indexOf('implementorStarted'));
      expect(order).toContain('implementorFailed');

      // A client that dropped after event N gets exactly what followed, in order.
      const resumeFrom = stream.events.find((event) => event.event === 'userCancelledRun')?.id as string;
      const resumed = await readSseEvents(`${base}/api/events`, { 'Last-Event-ID': resumeFrom });
      try {
        const expected = stream.events.filter((event) => Number(event.id) > Number(resumeFrom));
        await waitForCondition(() => resumed.events.length >= expected.length, 10_000, 'the resumed stream');
        expect(resumed.events.slice(0, expected.length)).toEqual(expected);
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 180_000);

  it('refuses a non-loopback address without FLOTILLA_SERVE_TOKEN before starting anything (exit 2)', async () => {
    const repo = await fixtures.demoRepository();
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--serve', '0.0.0.0:0'],
      env: { ...repo.gitEnv, FLOTILLA_SERVE_TOKEN: '' },
    });
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('a non-loopback address needs FLOTILLA_SERVE_TOKEN');
  }, 60_000);
});
