import { describe, expect, it } from 'vitest';
import {
  expectDemoCosts,
  expectDemoRevisions,
  expectDemoRuns,
  expectDemoTranscripts,
  expectDemoWorktreesSettled,
  withKeptDemo,
} from '../support/demo-loop.ts';

/**
 * Any connection gemini-cli or git would open outside 127.0.0.1 arrives at the model server and is refused.
 * gemini-cli sends every request through a proxy it is given unless NO_PROXY exempts the host, so its model
 * endpoint on 127.0.0.1 is exempted (as Flotilla's sandbox does when it proxies hosts).
 */
const proxyTripwire = (url: string): Record<string, string> => ({
  ...Object.fromEntries(
    ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].flatMap((name) => [
      [name, url],
      [name.toLowerCase(), url],
    ]),
  ),
  NO_PROXY: '127.0.0.1,localhost',
  no_proxy: '127.0.0.1,localhost',
});

describe('flotilla demo --runtime gemini', () => {
  it('runs the same loop with every role on the real gemini-cli against the scripted Gemini endpoint', async () => {
    await withKeptDemo({ runtime: 'gemini', agentEnv: proxyTripwire, timeout: 200 }, (demo) => {
      expect(demo.outcome.ok, demo.output).toBe(true);
      expect(demo.outcome.modelServerProblems, demo.output).toEqual([]);
      expect(demo.output).toContain('(every role on gemini)');
      expectDemoRuns(demo, 'scripted');
      // Priced as gemini-2.5-flash (the model scripted runs ask for), marked made up like the other demos'.
      expectDemoCosts(demo);
      // gemini's own tool calls: the files were written by write_file.
      expectDemoTranscripts(demo, 'write_file');
      // The reworked revision carries the reviewer's requested change; checks passed on it.
      expectDemoRevisions(demo);
      expectDemoWorktreesSettled(demo);
    });
  }, 300_000);
});
