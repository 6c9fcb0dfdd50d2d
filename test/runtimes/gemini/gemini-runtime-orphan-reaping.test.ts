import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reapOrphanProcesses } from '../../../src/app/reap-orphan-processes.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../../src/model-server/index.ts';
import { createGeminiRuntime } from '../../../src/runtimes/gemini/create-gemini-runtime.ts';
import { createTempGitRepo, type TempGitRepo } from '../../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

/** Pids whose command is `marker` (`exec -a`), seen from outside the sandbox's PID namespace. */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] === marker;
      } catch {
        return false;
      }
    })
    .map(Number);
}

let repo: TempGitRepo | undefined;
let server: ModelServer | undefined;
let stateDir: string | undefined;
afterEach(async () => {
  await server?.close();
  await repo?.cleanup();
  if (stateDir !== undefined) await rm(stateDir, { recursive: true, force: true });
  repo = server = stateDir = undefined;
});

describe('Gemini runtime run directories and crash recovery', () => {
  it("keeps its runs under <state>/gemini/runs, where a restart's orphan reaping finds what gemini started", async () => {
    const marker = `gemini-orphan-${randomUUID()}`;
    repo = await createTempGitRepo();
    await repo.commit('base', { 'README.md': '# app\n' });
    // The control plane's layout: `.flotilla/` is the state dir, the gemini runtime's is `<state>/gemini`.
    stateDir = await mkdtemp('/var/tmp/flotilla-test-gemini-state-');
    server = await createModelServer({
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'run_shell_command',
                  input: { command: `exec -a ${marker} sleep 600`, description: 'sleep' },
                },
              ],
            },
          ],
        },
      ],
    });
    const runtime = createGeminiRuntime({
      repoRoot: repo.root,
      defaultBranch: 'main',
      logger: createRecordingLogger(),
      stateDir: join(stateDir, 'gemini'),
      model: 'gemini-2.5-flash',
      baseEnv: { ...process.env, GEMINI_API_KEY: 'dummy' },
      extraEnv: { GOOGLE_GEMINI_BASE_URL: server.url },
      setupCommand: 'none',
      maxAgentDuration: 120,
      logging: { agentSessions: false, logsDir: join(stateDir, 'logs') },
      sandbox: createTestSandbox(),
    });
    const sessionID = randomUUID();
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID,
      prompt: 'Sleep.',
      workItemID: '7',
      branchName: 'flotilla/7',
    });
    try {
      await vi.waitFor(() => expect(processesWith(marker)).toHaveLength(1), {
        timeout: 60_000,
        interval: 100,
      });
      const [sleeper] = processesWith(marker);
      expect(readFileSync(`/proc/${sleeper}/environ`, 'utf8')).toContain(
        `GEMINI_CLI_HOME=${join(stateDir, 'gemini', 'runs', sessionID, 'home')}`,
      );

      // What `flotilla run` does at start after a kill -9: what the agent started is ended (killed itself, or
      // with the sandbox's PID namespace when gemini, found first, takes it down).
      const reaped = reapOrphanProcesses({ stateDir, tmpDir: join(stateDir, 'tmp') });
      expect(reaped.length).toBeGreaterThan(0);
      await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 30_000, interval: 100 });
    } finally {
      runtime.cancelAgent(sessionID);
      await handle.result.catch(() => {});
    }
  }, 120_000);
});
