import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reapOrphanProcesses } from '../../../src/app/reap-orphan-processes.ts';
import {
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  implementorParams,
} from '../../support/cli-runtime-fixture.ts';
import { isProcessRunning } from '../../support/shared/is-process-running.ts';

// Each run starts node with tsx for the fake agent: slow under a loaded CPU, so generous limits.
vi.setConfig({ testTimeout: 60_000 });

describe('CLI runtime run directories and crash recovery', () => {
  let fixture: CliRuntimeFixture;
  beforeEach(async () => {
    fixture = await createCliRuntimeFixture();
  });
  afterEach(async () => fixture.cleanup());

  it("keeps its runs under <state>/cli/runs, where a restart's orphan reaping finds the agent's processes", async () => {
    // The control plane's layout: `.flotilla/` is the state dir, the CLI runtime's is `.flotilla/cli`.
    const stateDir = join(fixture.dir, 'flotilla-state');
    const pidFile = join(fixture.dir, 'sleeper.pid');
    const runtime = await fixture.runtimeFor(
      [{ steps: [{ spawnSleeper: pidFile }, { print: 'sleeping' }, { sleepMs: 600_000 }] }],
      { stateDir: join(stateDir, 'cli') },
    );
    const params = implementorParams();
    const handle = await runtime.startAgent(params);
    try {
      for await (const chunk of handle.output) if (chunk.includes('sleeping')) break;
      expect(existsSync(join(stateDir, 'cli', 'runs', params.sessionID))).toBe(true);
      expect(existsSync(join(stateDir, 'claude'))).toBe(false);
      const sleeper = Number(readFileSync(pidFile, 'utf8'));

      // What `flotilla run` does at start after a kill -9: the agent and what it started are ended.
      const reaped = reapOrphanProcesses({ stateDir, tmpDir: join(stateDir, 'tmp') });
      expect(reaped).toContain(sleeper);
      await vi.waitFor(() => expect(isProcessRunning(sleeper)).toBe(false));
      await expect(handle.result).rejects.toThrow();
    } finally {
      runtime.cancelAgent(params.sessionID);
      await handle.result.catch(() => {});
    }
  });
});
