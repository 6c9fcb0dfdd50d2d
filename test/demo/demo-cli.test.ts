import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
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
      // Recorded as scripted: the demo agent CLI's usage is made up (marked, never counted with real spend).
      expectDemoRuns(demo, 'scripted');
      expectDemoCosts(demo);
      // The agent's own output lines, captured by the CLI runtime.
      expectDemoTranscripts(demo, 'committed: ');
      expectDemoRevisions(demo);
      expectDemoWorktreesSettled(demo);
    });
  }, 240_000);
});

describe('flotilla demo --runtime cli, not kept', () => {
  it('removes the repository only once its worktree work has settled (no git writing under it)', async () => {
    const logger = createRecordingLogger();
    const lines: string[] = [];
    let settledBeforeRemoval: boolean | null = null;
    const outcome = await runDemo({
      runtime: 'cli',
      keep: false,
      logger,
      print: (line) => {
        lines.push(line);
        // Printed right after the removal: was the worktree manager settled by then?
        if (line.includes('The demo repository and its transcripts were removed'))
          settledBeforeRemoval = logger.records.some((record) => record.message === 'Worktrees settled');
      },
    });
    expect(outcome.ok, lines.join('\n')).toBe(true);
    expect(settledBeforeRemoval).toBe(true);
    expect(existsSync(outcome.repoRoot)).toBe(false);
  }, 240_000);
});
