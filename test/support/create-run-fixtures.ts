import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControlPlane, createControlPlane } from '../../src/app/create-control-plane.ts';
import { createDemoRepository } from '../../src/app/demo/create-demo-repository.ts';
import { loadConfig } from '../../src/config/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createModelServer, loadScenarioFile, type ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { agentProcessesOf } from './agent-processes-of.ts';
import { checksProcessesOf } from './checks-processes-of.ts';
import type { FakeAgentRound } from './cli-runtime/fake-agent-cli.ts';

type DemoRepository = Awaited<ReturnType<typeof createDemoRepository>>;

export const FLOTILLA_BIN = join(import.meta.dirname, '../../bin/flotilla.js');
const DEMO_SCENARIO = join(import.meta.dirname, '../../src/app/demo/demo-scenario.json');
const SCRIPTED_SCENARIO_FILE = 'scripted.scenario.json';

/**
 * Config settings for a control plane a test drives: no checks command, no worktree setup, one-second polls
 * (spread them into `configuredDemoRepository`'s settings).
 */
export const QUICK_LOOP_SETTINGS = {
  checks: { command: null },
  worktree: { setupCommand: 'none' },
  pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
};

/**
 * The settings of a loop whose agent is the fake agent CLI playing a script through the control plane: it
 * records each call next to its script, outside any worktree — a test instrument the OS sandbox rightly
 * refuses to write — so these wiring tests run unsandboxed. The sandboxed CLI loop is the demo's
 * (`test/demo/`), and the sandbox itself is tested in `src/sandbox/` and `test/security/`.
 */
export const FAKE_AGENT_LOOP_SETTINGS = { ...QUICK_LOOP_SETTINGS, sandbox: 'off' as const };

/**
 * What the end-to-end tests of `flotilla run` and of its wiring (createControlPlane) set up — the demo
 * repository, a scripted model server, the fake agent CLI's script, a started control plane — and take down
 * afterwards, last first (agent and checks processes a killed flotilla left behind included). Call
 * `cleanup()` in afterEach.
 */
export interface RunFixtures {
  /** The demo repository (an approved spec, agent definitions, config), removed at cleanup. */
  demoRepository(): Promise<DemoRepository>;
  /**
   * The demo repository with `settings` set over the top-level fields of its flotilla.config.json, then
   * `prepare` run on it, all committed on `main` (what a user pushing their setup does).
   */
  configuredDemoRepository(
    settings: Record<string, unknown>,
    options?: { prepare?: (root: string) => Promise<void>; message?: string },
  ): Promise<DemoRepository>;
  /**
   * The demo repository with every role `scripted` on `scenario` (committed as scripted.scenario.json),
   * QUICK_LOOP_SETTINGS and no validation commands, then `settings` over those (e.g. `scriptedRuntime`).
   */
  scriptedDemoRepository(scenario: ScenarioSpec, settings?: Record<string, unknown>): Promise<DemoRepository>;
  /**
   * The fake agent CLI's script playing `rounds`, in a temporary directory removed at cleanup; returns its
   * path (give it to the agent as FAKE_AGENT_SCRIPT; each call is recorded in `<path>.calls.jsonl`).
   */
  fakeAgentScript(rounds: FakeAgentRound[]): Promise<string>;
  /**
   * A control plane on the repository's committed config, loaded as `flotilla run` loads it, with
   * `extraEnv` for its agents (the repository's git identity added), started; closed at cleanup (a test may
   * close it first, as a restart does: `close` runs once).
   */
  startControlPlane(repo: DemoRepository, extraEnv?: Record<string, string>): Promise<ControlPlane>;
  /** A scripted model server on 127.0.0.1 answering with `scenario` (default: the demo's), closed at cleanup. */
  serve(scenario?: ScenarioSpec): Promise<ModelServer>;
  /** Runs `step` at cleanup, before what was set up earlier. */
  defer(step: () => Promise<void>): void;
  cleanup(): Promise<void>;
}

export function createRunFixtures(): RunFixtures {
  const steps: (() => Promise<void>)[] = [];
  const fixtures: RunFixtures = {
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
    async configuredDemoRepository(settings, options = {}) {
      const repo = await fixtures.demoRepository();
      const configPath = join(repo.root, 'flotilla.config.json');
      const config: Record<string, unknown> = JSON.parse(await readFile(configPath, 'utf8'));
      await writeFile(configPath, `${JSON.stringify({ ...config, ...settings }, null, 2)}\n`);
      await options.prepare?.(repo.root);
      const git = (args: string[]) =>
        execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } });
      git(['add', '-A']);
      git(['commit', '--quiet', '-m', options.message ?? 'Test setup']);
      return repo;
    },
    scriptedDemoRepository(scenario, settings = {}) {
      return fixtures.configuredDemoRepository(
        {
          runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
          scriptedScenario: SCRIPTED_SCENARIO_FILE,
          ...QUICK_LOOP_SETTINGS,
          validation: { commands: [] },
          ...settings,
        },
        {
          prepare: (root) => writeFile(join(root, SCRIPTED_SCENARIO_FILE), JSON.stringify(scenario)),
          message: `Scripted scenario ${scenario.name ?? ''}`.trim(),
        },
      );
    },
    async fakeAgentScript(rounds) {
      const dir = await mkdtemp(join(tmpdir(), 'flotilla-fake-agent-'));
      steps.push(() => rm(dir, { recursive: true, force: true }));
      const scriptPath = join(dir, 'script.json');
      await writeFile(scriptPath, JSON.stringify({ rounds }));
      return scriptPath;
    },
    async startControlPlane(repo, extraEnv = {}) {
      const loaded = await loadConfig(repo.root);
      if (!loaded.ok) throw new Error(`invalid test configuration: ${loaded.errors.join('; ')}`);
      const controlPlane = await createControlPlane({
        repoRoot: repo.root,
        config: loaded.config,
        logger: silentLogger,
        extraEnv: { ...extraEnv, ...repo.gitEnv },
      });
      let closing: Promise<void> | null = null;
      const close = () => {
        closing ??= controlPlane.close();
        return closing;
      };
      steps.push(close);
      await controlPlane.engine.start();
      return { ...controlPlane, close };
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
  return fixtures;
}
