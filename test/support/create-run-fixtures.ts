import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createDemoRepository } from '../../src/app/demo/create-demo-repository.ts';
import { createModelServer, loadScenarioFile, type ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { agentProcessesOf } from './agent-processes-of.ts';
import { checksProcessesOf } from './checks-processes-of.ts';

type DemoRepository = Awaited<ReturnType<typeof createDemoRepository>>;

export const FLOTILLA_BIN = join(import.meta.dirname, '../../bin/flotilla.js');
const DEMO_SCENARIO = join(import.meta.dirname, '../../src/app/demo/demo-scenario.json');

/**
 * What the end-to-end tests of `flotilla run` set up — the demo repository, a scripted model server — and
 * take down afterwards, last first (agent and checks processes a killed flotilla left behind included). Call `cleanup()`
 * in afterEach.
 */
export interface RunFixtures {
  /** The demo repository (an approved spec, agent definitions, config), removed at cleanup. */
  demoRepository(): Promise<DemoRepository>;
  /** A scripted model server on 127.0.0.1 answering with `scenario` (default: the demo's), closed at cleanup. */
  serve(scenario?: ScenarioSpec): Promise<ModelServer>;
  /** Runs `step` at cleanup, before what was set up earlier. */
  defer(step: () => Promise<void>): void;
  cleanup(): Promise<void>;
}

export function createRunFixtures(): RunFixtures {
  const steps: (() => Promise<void>)[] = [];
  return {
    async demoRepository() {
      const repo = await createDemoRepository();
      steps.push(async () => {
        // A test that failed midway may have left agents or checks behind (its flotilla was killed): end them too.
        for (const pid of [...agentProcessesOf(repo.root), ...checksProcessesOf(repo.root)]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        await rm(repo.root, { recursive: true, force: true });
      });
      return repo;
    },
    async serve(scenario) {
      const server = await createModelServer(scenario ?? (await loadScenarioFile(DEMO_SCENARIO)));
      steps.push(() => server.close());
      return server;
    },
    defer(step) {
      steps.push(step);
    },
    async cleanup() {
      for (const step of steps.splice(0).reverse()) await step();
    },
  };
}
