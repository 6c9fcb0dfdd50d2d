import { describe, expect, it } from 'vitest';
import {
  expectDemoCosts,
  expectDemoRevisions,
  expectDemoRuns,
  expectDemoTranscripts,
  expectDemoWorktreesSettled,
  withKeptDemo,
} from '../support/demo-loop.ts';

describe('flotilla demo --runtime cli', () => {
  it('runs the same loop with every role on the CLI runtime, played by the demo agent CLI', async () => {
    await withKeptDemo({ runtime: 'cli' }, (demo) => {
      expect(demo.outcome.ok, demo.output).toBe(true);
      expect(demo.output).toContain('every role on cli (the scripted demo agent CLI; no model server)');
      // Recorded as scripted: the demo agent CLI's usage is made up (marked, never summed).
      expectDemoRuns(demo, 'scripted');
      expectDemoCosts(demo);
      // The agent's own output lines, captured by the CLI runtime.
      expectDemoTranscripts(demo, 'committed: ');
      expectDemoRevisions(demo);
      expectDemoWorktreesSettled(demo);
    });
  }, 240_000);
});
