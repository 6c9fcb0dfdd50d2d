import { rm } from 'node:fs/promises';
import { loadConfig, resolveFlotillaPaths } from '../../config/index.ts';
import {
  type AgentRun,
  describeChecksOutcome,
  describeReviewVerdict,
  isScriptedRun,
  revisionName,
} from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { createModelServer, type ModelServer } from '../../model-server/create-model-server.ts';
import { loadScenarioFile } from '../../model-server/load-scenario-file.ts';
import { type ControlPlane, createControlPlane } from '../create-control-plane.ts';
import { createQuotaProgress } from '../progress/create-quota-progress.ts';
import { createSpendTally } from '../progress/create-spend-tally.ts';
import { describeEvent } from '../progress/describe-event.ts';
import { waitUntilIdle } from '../wait-until-idle.ts';
import { buildDemoAgentProgram } from './build-demo-agent-program.ts';
import { createDemoRepository } from './create-demo-repository.ts';
import type { DemoProvider } from './demo-providers.ts';
import { DEMO_RUNTIMES, findRuntimeDemo } from './demo-runtimes.ts';
import type { DemoGitHub } from './start-demo-github.ts';

export interface DemoOptions {
  keep: boolean;
  /** Every role's runtime: one of DEMO_RUNTIMES (default: the first, the registry's default runtime). */
  runtime?: string;
  /**
   * Where work items, revisions and specs live: `local` (default: SQLite, branches, `npm test` as checks) or
   * `github` (the built-in fake GitHub on 127.0.0.1: issues, pull requests, a CI that passes; no account).
   */
  provider?: DemoProvider;
  /** With `github`: the fake delivers webhooks, polled at once (default true); false: polls only. */
  webhooks?: boolean;
  /** Progress lines and the summary. */
  print: (line: string) => void;
  logger: Logger;
  /** Added to every agent's environment (tests: a proxy tripwire pointing at the model server). */
  agentEnv?: (modelServerUrl: string) => Readonly<Record<string, string>>;
  /** Seconds before the demo gives up (not when watched: the watcher decides when it ends). */
  timeout?: number;
  /**
   * Hands the control plane (engine not started) to a watcher — the dashboard — instead of printing progress
   * and waiting until idle; the demo ends when the watcher returns.
   */
  watch?: (controlPlane: ControlPlane, repoRoot: string) => Promise<void>;
}

export interface DemoOutcome {
  ok: boolean;
  repoRoot: string;
  runs: AgentRun[];
  approved: number;
  /** What the scripted model server found wrong (unmet expectations, connections it refused). */
  modelServerProblems: string[];
}

/**
 * The whole loop in a throwaway repository on a REAL agent runtime (the Claude Agent SDK by default; codex,
 * gemini-cli: their real binaries) answered by the scripted model server (no network, no API key), or on the
 * CLI runtime around the scripted demo agent CLI: an approved spec is planned into two items (the second blocked by the
 * first), each is implemented in a worktree with a test and committed, the reviewer asks for changes once,
 * the item is reworked and approved, then the second item follows. Everything goes through the
 * local provider (SQLite + real branches + `npm test` as the checks), like `flotilla run` in a real repo.
 */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const { print, logger } = options;
  const runtime = options.runtime ?? DEMO_RUNTIMES[0] ?? '';
  // Each runtime's descriptor says how its demo runs: its story in its own tools, or the demo agent CLI.
  const demo = findRuntimeDemo(runtime);
  if (demo === undefined)
    throw new Error(`runtime '${runtime}' has no demo (offered: ${DEMO_RUNTIMES.join(', ')})`);
  const repo = await createDemoRepository();
  print(`demo repository: ${repo.root}`);
  const loaded = await loadConfig(repo.root);
  if (!loaded.ok) throw new Error(`demo configuration is invalid: ${loaded.errors.join('; ')}`);
  let github: DemoGitHub | null = null;
  if (options.provider === 'github') {
    // Loaded on use: the fake GitHub is demo-only.
    const { startDemoGitHub } = await import('./start-demo-github.ts');
    const webhooks = options.webhooks ?? true;
    github = await startDemoGitHub(repo.root, loaded.config, repo.gitEnv, { webhooks, logger });
    print(
      `fake GitHub: ${github.fake.apiUrl} (${github.fake.owner}/${github.fake.repo}; its CI passes every head; ${webhooks ? 'webhooks delivered' : 'no webhooks: polls only'})`,
    );
  }
  const config = github?.config ?? loaded.config;
  const providerOptions =
    github !== null
      ? {
          providerEnv: github.providerEnv,
          ...(github.changeFeed !== null && { changeFeed: github.changeFeed }),
        }
      : {};
  let server: ModelServer | null = null;
  let controlPlane: ControlPlane;
  try {
    if ('agentProgram' in demo) {
      // No model at all: every role runs the demo agent CLI through the runtime, as configured runtimes do.
      print(`every role on ${runtime} (the scripted demo agent CLI; no model server)`);
      const settings = demo.agentProgram(buildDemoAgentProgram());
      controlPlane = await createControlPlane({
        repoRoot: repo.root,
        config: { ...config, runtimes: { planner: settings, implementor: settings, reviewer: settings } },
        logger,
        // Its usage is made up: recorded as `scripted` (marked, never counted with real spend).
        scriptedCli: true,
        ...providerOptions,
        extraEnv: { ...repo.gitEnv },
      });
    } else {
      server = await createModelServer(await loadScenarioFile(demo.scenarioPath));
      print(`scripted model server: ${server.url} (every role on ${runtime})`);
      // The same wiring as `flotilla run`: the configured provider (local: SQLite, revision branches, `npm
      // test` as checks; or the fake GitHub), run history, the runtime — pointed at the scripted model server.
      controlPlane = await createControlPlane({
        repoRoot: repo.root,
        config,
        logger,
        ...providerOptions,
        extraEnv: { ...repo.gitEnv, ...options.agentEnv?.(server.url) },
        scriptedModelServerUrl: server.url,
        scriptedRuntime: runtime,
      });
    }
  } catch (error) {
    await github?.close();
    await server?.close();
    throw error;
  }
  const { engine, provider } = controlPlane;
  const logsDir = resolveFlotillaPaths(repo.root).logsDir;
  const startedAt = Date.now();
  if (!options.watch) {
    const quotaProgress = createQuotaProgress();
    engine.onEvent((event, state) => {
      const stamp = `  [${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`;
      const line = describeEvent(event, state);
      if (line) print(`${stamp} ${line}`);
      // GitHub's budget as the fake reports it, like `flotilla run`'s progress lines.
      const quota = provider.quota?.();
      const quotaLine = quota === undefined ? null : quotaProgress(quota, Date.now());
      if (quotaLine !== null) print(`${stamp} ${quotaLine}`);
    });
  }

  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
    },
    (options.timeout ?? 120) * 1000,
  );
  timer.unref();
  try {
    if (options.watch) {
      clearTimeout(timer);
      await options.watch(controlPlane, repo.root);
    } else {
      await engine.start();
      await waitUntilIdle(controlPlane, () => timedOut, { maxCheckRounds: config.maxCheckRounds });
    }
  } finally {
    clearTimeout(timer);
    await engine.stop();
    await server?.close();
  }
  let summary: { outcome: DemoOutcome; branches: string[] };
  try {
    summary = await summarize();
  } finally {
    await controlPlane.close();
    await github?.close();
  }
  // Only now: until the control plane is closed, a removal queued behind a run and the spare worktrees being
  // prepared still write into .git/worktrees, and removing the repository under them failed (ENOTEMPTY).
  if (options.keep) {
    print(
      `\nThe repository is kept at ${repo.root} (revisions are on branches ${summary.branches.join(', ')}; agent worktrees were removed; transcripts and checks logs are in ${logsDir}).`,
    );
    print(`Look around: cd ${repo.root} && flotilla work list   (then flotilla diff 1, flotilla merge 1)`);
  } else {
    await rm(repo.root, { recursive: true, force: true });
    print('\nThe demo repository and its transcripts were removed (use --keep to inspect them).');
  }
  return summary.outcome;

  /** Prints the summary; the outcome, and the revision branches for the closing line. */
  async function summarize(): Promise<{ outcome: DemoOutcome; branches: string[] }> {
    const state = engine.getState();
    const runs = Object.values(state.agentRuns).sort((a, b) => a.requestedAt - b.requestedAt);
    const items = Object.values(state.workItems).sort((a, b) => Number(a.id) - Number(b.id));
    print('');
    print(`Summary (${((Date.now() - startedAt) / 1000).toFixed(1)}s)`);
    print('  work items:');
    for (const item of items) {
      const revision = item.linkedRevision ? state.revisions[item.linkedRevision] : undefined;
      const reviews = revision
        ? (await provider.revisionReader.getReviewHistory(revision.id)).reviews
            .map((review) => describeReviewVerdict(review).said)
            .join(', ')
        : '';
      const checks = `checks ${revision?.pipeline ? describeChecksOutcome(revision.pipeline.status) : 'unknown'}`;
      print(
        `    #${item.id} ${item.status.padEnd(16)} ${item.title}${revision ? `  — revision ${revisionName(revision)} on branch ${revision.headRef} @ ${revision.headSHA.slice(0, 8)} (${checks}${reviews ? `; reviews: ${reviews}` : ''})` : ''}`,
      );
    }
    print('  agent runs:');
    for (const run of runs) {
      const subject = run.role === 'planner' ? run.specPaths.join(', ') : `#${run.workItemID}`;
      const duration = run.endedAt ? `${((run.endedAt - run.requestedAt) / 1000).toFixed(1)}s` : '—';
      // The scripted model server makes costs up: marked, never counted with real spend.
      const cost =
        run.usage?.costUSD != null
          ? `$${run.usage.costUSD.toFixed(4)}${isScriptedRun(run) ? ' (scripted)' : ''}`
          : '';
      print(
        `    ${run.role.padEnd(11)} ${subject.padEnd(24)} ${run.status.padEnd(10)} ${duration.padStart(6)} ${cost}`,
      );
      if (run.logFilePath && options.keep) print(`      transcript: ${run.logFilePath}`);
    }
    const spend = createSpendTally();
    for (const run of runs) spend.addRun(run);
    const total = spend.describe();
    if (total !== null) print(`  total: ${total}`);
    const problems = server?.report().problems ?? [];
    if (problems.length > 0) print(`  model server: ${problems.join('; ')}`);
    const approved = items.filter((item) => item.status === 'approved').length;
    // Watched, the human may have merged, cancelled or re-dispatched: only errors make it a failure.
    const ok = options.watch
      ? state.errors.length === 0
      : !timedOut && approved === items.length && items.length === 2 && state.errors.length === 0;
    if (state.errors.length > 0) print(`  errors: ${state.errors.map((error) => error.message).join('; ')}`);
    return {
      outcome: { ok, repoRoot: repo.root, runs, approved, modelServerProblems: problems },
      branches: items.map((item) => `flotilla/${item.id}`),
    };
  }
}
