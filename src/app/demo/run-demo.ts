import { rm } from 'node:fs/promises';
import { type FlotillaConfig, loadConfig, resolveFlotillaPaths } from '../../config/index.ts';
import type { ModelServer } from '../../model-server/create-model-server.ts';
import type { ControlPlane } from '../create-control-plane.ts';
import { createQuotaProgress } from '../progress/create-quota-progress.ts';
import { describeEvent } from '../progress/describe-event.ts';
import { waitUntilIdle } from '../wait-until-idle.ts';
import { createDemoRepository } from './create-demo-repository.ts';
import type { DemoOptions, DemoOutcome } from './demo-options.ts';
import { DEMO_RUNTIMES, findRuntimeDemo } from './demo-runtimes.ts';
import { startDemoControlPlane } from './start-demo-control-plane.ts';
import type { DemoGitHub } from './start-demo-github.ts';
import { summarizeDemo } from './summarize-demo.ts';

/**
 * The whole loop in a throwaway repository on a REAL agent runtime (the Claude Agent SDK by default; codex,
 * gemini-cli: their real binaries) answered by the scripted model server (no network, no API key), or on the
 * CLI runtime around the scripted demo agent CLI: an approved spec is planned into two items (the second blocked by the
 * first), each is implemented in a worktree with a test and committed, the reviewer asks for changes once,
 * the item is reworked and approved, then the second item follows. Everything goes through the
 * local provider (SQLite + real branches + `npm test` as the checks), like `flotilla run` in a real repo.
 */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const { print } = options;
  const runtime = options.runtime ?? DEMO_RUNTIMES[0] ?? '';
  // Each runtime's descriptor says how its demo runs: its story in its own tools, or the demo agent CLI.
  const demo = findRuntimeDemo(runtime);
  if (demo === undefined)
    throw new Error(`runtime '${runtime}' has no demo (offered: ${DEMO_RUNTIMES.join(', ')})`);
  const repo = await createDemoRepository();
  print(`demo repository: ${repo.root}`);
  const loaded = await loadConfig(repo.root);
  if (!loaded.ok) throw new Error(`demo configuration is invalid: ${loaded.errors.join('; ')}`);
  const github = options.provider === 'github' ? await startFakeGitHub(repo, loaded.config, options) : null;
  const config = github?.config ?? loaded.config;
  const { controlPlane, server } = await startDemoControlPlane({
    options,
    runtime,
    demo,
    repo,
    config,
    github,
  });
  const startedAt = Date.now();
  if (!options.watch) printProgress(controlPlane, startedAt, print);
  const timedOut = await playDemo(controlPlane, repo.root, config, options, server);
  let summary: { outcome: DemoOutcome; branches: string[] };
  try {
    summary = await summarizeDemo({
      controlPlane,
      repoRoot: repo.root,
      server,
      print,
      keep: options.keep,
      watched: options.watch !== undefined,
      timedOut,
      startedAt,
    });
  } finally {
    await controlPlane.close();
    await github?.close();
  }
  // Only now: until the control plane is closed, a removal queued behind a run and the spare worktrees being
  // prepared still write into .git/worktrees, and removing the repository under them failed (ENOTEMPTY).
  await keepOrRemoveRepository(repo.root, summary.branches, options);
  return summary.outcome;
}

/** `--keep`: says where the repository is and what to look at; otherwise removes it. */
async function keepOrRemoveRepository(
  repoRoot: string,
  branches: string[],
  options: DemoOptions,
): Promise<void> {
  const { print } = options;
  if (options.keep) {
    const logsDir = resolveFlotillaPaths(repoRoot).logsDir;
    print(
      `\nThe repository is kept at ${repoRoot} (revisions are on branches ${branches.join(', ')}; agent worktrees were removed; transcripts and checks logs are in ${logsDir}).`,
    );
    print(`Look around: cd ${repoRoot} && flotilla work list   (then flotilla diff 1, flotilla merge 1)`);
  } else {
    await rm(repoRoot, { recursive: true, force: true });
    print('\nThe demo repository and its transcripts were removed (use --keep to inspect them).');
  }
}

/** `--provider github`: the built-in fake GitHub the demo plays against, started and announced. */
async function startFakeGitHub(
  repo: { root: string; gitEnv: Record<string, string> },
  config: FlotillaConfig,
  options: DemoOptions,
): Promise<DemoGitHub> {
  // Loaded on use: the fake GitHub is demo-only.
  const { startDemoGitHub } = await import('./start-demo-github.ts');
  const webhooks = options.webhooks ?? true;
  const github = await startDemoGitHub(repo.root, config, repo.gitEnv, { webhooks, logger: options.logger });
  options.print(
    `fake GitHub: ${github.fake.apiUrl} (${github.fake.owner}/${github.fake.repo}; its CI passes every head; ${webhooks ? 'webhooks delivered' : 'no webhooks: polls only'})`,
  );
  return github;
}

/** A progress line per meaningful event, stamped with the seconds since the start, and GitHub's budget. */
function printProgress(controlPlane: ControlPlane, startedAt: number, print: (line: string) => void): void {
  const { engine, provider } = controlPlane;
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

/**
 * Plays the demo: hands it to the watcher, or starts the engine and waits until idle or the timeout. Then
 * the engine is stopped and the model server closed. Whether it timed out.
 */
async function playDemo(
  controlPlane: ControlPlane,
  repoRoot: string,
  config: FlotillaConfig,
  options: DemoOptions,
  server: ModelServer | null,
): Promise<boolean> {
  const { engine } = controlPlane;
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
      await options.watch(controlPlane, repoRoot);
    } else {
      await engine.start();
      await waitUntilIdle(controlPlane, () => timedOut, { maxCheckRounds: config.maxCheckRounds });
    }
  } finally {
    clearTimeout(timer);
    await engine.stop();
    await server?.close();
  }
  return timedOut;
}
