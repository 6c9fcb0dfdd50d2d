import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { waitUntilIdle } from '../../src/app/wait-until-idle.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';

const BIN = join(import.meta.dirname, '../../bin/flotilla.js');

describe('flotilla demo watched (what --dashboard does)', () => {
  it('hands the control plane to the watcher, prints no progress lines meanwhile, and summarises after it returns', async () => {
    const lines: string[] = [];
    let linesWhileWatching = -1;
    let watchedRoot = '';
    const outcome = await runDemo({
      keep: false,
      print: (line) => lines.push(line),
      logger: createRecordingLogger(),
      watch: async (controlPlane, repoRoot) => {
        watchedRoot = repoRoot;
        const before = lines.length;
        await controlPlane.engine.start();
        await waitUntilIdle(controlPlane, () => false);
        // A human merges #1 from the dashboard: an engine event, like the `m` key.
        controlPlane.engine.enqueue({ type: 'userRequestedMerge', workItemID: '1' });
        await controlPlane.engine.pollNow();
        await controlPlane.engine.whenQuiescent();
        linesWhileWatching = lines.length - before;
        // The dashboard stops only the engine; the demo still reads the tracker for its summary.
        await controlPlane.engine.stop();
      },
    });
    const output = lines.join('\n');
    expect(outcome.ok, output).toBe(true);
    expect(outcome.repoRoot).toBe(watchedRoot);
    expect(linesWhileWatching).toBe(0);
    expect(output).toMatch(/#1 closed +Add greet/);
    expect(output).toMatch(/#2 approved +Add farewell/);
  }, 120_000);

  it('refuses --dashboard without a terminal (exit 2, says why)', () => {
    const result = spawnSync(process.execPath, [BIN, 'demo', '--dashboard'], {
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, IS_SANDBOX: '1' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--dashboard needs a terminal');
  });
});
