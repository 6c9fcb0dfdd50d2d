/**
 * Pipeline: the demo scaled to 20 independent work items, through the real control plane (local provider,
 * SQLite, revision branches, `npm test` as checks, the Claude adapter and the real SDK answered by the
 * scripted model server). The planner creates 20 items (mixed priorities, no dependencies); each implementor
 * writes a module and its test, runs `npm test` and commits; the reviewer approves at once. Prints, per item,
 * the wall time split into phases (median / p90 / max), the total wall time and throughput, then worktree
 * creation through the worktree manager vs a bare `git worktree add` of the same repository.
 * With several concurrency levels (AGENTS=3,10,20) each level runs on a fresh repository and a table compares
 * them: items/min, queue wait, peak RSS of the control plane and of all agent processes, control-plane CPU.
 * Run: npm run bench:pipeline  (ITEMS=20, AGENTS=3, WORKTREE_RUNS=20, TIMEOUT=600 seconds)
 *      npm run bench:pipeline:scale  (ITEMS=40, AGENTS=3,10,20; the worktree comparison is skipped)
 * MERGE_QUEUE=1 turns on `merge.queue`: items are also merged, one at a time, and the merge queue's figures
 * are printed (approved → merged, steps by outcome, the longest queue). How to run it: bench/pipeline/README.md.
 * MODEL_LATENCY_MS delays every scripted answer: without it the scripted model answers at once and the run
 * measures only this machine's CPU (the agents' CLI processes), not what concurrency buys with a real model.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createControlPlane } from '../../src/app/create-control-plane.ts';
import { waitUntilIdle } from '../../src/app/wait-until-idle.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { EngineEvent } from '../../src/domain/events.ts';
import type { LogFields, Logger } from '../../src/logging/logger.ts';
import { createModelServer, type Route, type Scenario } from '../../src/model-server/index.ts';
import { runGit } from '../../src/process/run-command.ts';
import { createWorktreeManager } from '../../src/workspace/create-worktree-manager.ts';
import {
  createPipelineFigures,
  median,
  mergeWaits,
  mib,
  percentile,
  printScaleTable,
  type ScaleRow,
  seconds,
} from './pipeline-figures.ts';
import { createProcessTreeSampler } from './sample-process-tree.ts';

const ITEMS = Number(process.env.ITEMS ?? 20);
const AGENT_COUNTS = (process.env.AGENTS ?? '3').split(',').map((count) => Number(count.trim()));
/** Added to every scripted model answer: real models take seconds per turn, which is what concurrency hides. */
const MODEL_LATENCY_MS = Number(process.env.MODEL_LATENCY_MS ?? 0);
const WORKTREE_RUNS = Number(process.env.WORKTREE_RUNS ?? (AGENT_COUNTS.length > 1 ? 0 : 20));
const TIMEOUT_S = Number(process.env.TIMEOUT ?? 600);
/** `merge.queue: true`: every approved item merges through Flotilla's queue (local provider: one at a time). */
const MERGE_QUEUE = process.env.MERGE_QUEUE === '1';
const RESERVE_MIB = process.env.RESERVE_MIB === undefined ? null : Number(process.env.RESERVE_MIB);
const SPEC_PATH = 'docs/specs/modules.md';
const PRIORITIES = ['high', 'medium', 'low'] as const;

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Flotilla Bench',
  GIT_AUTHOR_EMAIL: 'bench@flotilla.invalid',
  GIT_COMMITTER_NAME: 'Flotilla Bench',
  GIT_COMMITTER_EMAIL: 'bench@flotilla.invalid',
};

const AGENTS = {
  planner: ['Read, Grep, Glob, Bash', 'You are the planner. Turn the approved specs into small work items.'],
  implementor: [
    'Read, Write, Edit, Grep, Glob, Bash',
    'You are the implementor. Implement exactly one work item, with tests, and commit your work.',
  ],
  reviewer: ['Read, Grep, Glob, Bash', 'You are the reviewer. Review the revision against the work item.'],
} as const;

const moduleName = (n: number) => `module${n}`;

function repositoryFiles(agents: number): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      { name: 'modules', version: '1.0.0', type: 'module', private: true, scripts: { test: 'node --test' } },
      null,
      2,
    )}\n`,
    'README.md': '# modules\n\nA sample project for the Flotilla pipeline benchmark.\n',
    'flotilla.config.json': `${JSON.stringify(
      {
        specsDir: 'docs/specs',
        checks: { command: 'npm test', timeout: 120 },
        worktree: { setupCommand: 'none' },
        pollIntervals: { workItems: 2, revisions: 2, specs: 2 },
        scheduler: {
          maxConcurrentAgents: agents,
          // A shared machine: RESERVE_MIB keeps more memory free for the others than the default 1024.
          ...(RESERVE_MIB !== null && { resources: { reserveMemoryMiB: RESERVE_MIB } }),
        },
        ...(MERGE_QUEUE && { merge: { queue: true } }),
        maxAgentDuration: 300,
        shutdownTimeout: 30,
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules/\n.flotilla/\n.worktrees/\n',
    '.claude/CLAUDE.md': 'Conventions: ES modules, tests with node:test in test/, conventional commits.\n',
    [SPEC_PATH]: [
      '---',
      'status: approved',
      '---',
      '# Modules',
      '',
      `The library exports ${ITEMS} independent modules.`,
      '',
      '## Acceptance criteria',
      ...Array.from(
        { length: ITEMS },
        (_, i) => `${i + 1}. \`${moduleName(i + 1)}()\` in \`src/${moduleName(i + 1)}.js\` returns ${i + 1}.`,
      ),
      '',
    ].join('\n'),
  };
  for (const [role, [tools, prompt]] of Object.entries(AGENTS)) {
    files[`.claude/agents/${role}.md`] = [
      '---',
      `description: Flotilla ${role}`,
      `tools: ${tools}`,
      'model: inherit',
      '---',
      prompt,
      '',
    ].join('\n');
  }
  return files;
}

async function createRepository(agents: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'flotilla-bench-pipeline-'));
  for (const [path, content] of Object.entries(repositoryFiles(agents))) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  const git = (args: string[]) => runGit(args, { cwd: root, env: GIT_ENV });
  await git(['init', '--quiet', '--initial-branch', 'main']);
  await git(['config', 'commit.gpgsign', 'false']);
  await git(['add', '-A']);
  await git(['commit', '--quiet', '-m', 'Sample project with an approved spec']);
  return root;
}

/** Planner → ITEMS items; per item an implementor route (write, test + commit, result) and a reviewer route. */
function buildScenario(): Scenario {
  const routes: Route[] = [];
  for (let n = 1; n <= ITEMS; n += 1) {
    const name = moduleName(n);
    const itemHeading = `## Work Item #${n} —`;
    routes.push(
      {
        name: `reviewer-${n}`,
        match: { systemIncludes: 'You are the reviewer', firstUserIncludes: itemHeading },
        steps: [
          {
            structuredOutput: {
              role: 'reviewer',
              review: {
                verdict: 'approve',
                summary: `${name}() matches the spec and is tested.`,
                comments: [],
              },
            },
          },
        ],
      },
      {
        name: `implementor-${n}`,
        match: { systemIncludes: 'You are the implementor', firstUserIncludes: itemHeading },
        steps: [
          {
            text: `Implementing ${name}() with a test.`,
            content: [
              {
                type: 'tool_use',
                name: 'Write',
                input: {
                  file_path: `{{cwd}}/src/${name}.js`,
                  content: `export function ${name}() {\n  return ${n};\n}\n`,
                },
              },
              {
                type: 'tool_use',
                name: 'Write',
                input: {
                  file_path: `{{cwd}}/test/${name}.test.js`,
                  content: `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${name} } from '../src/${name}.js';\n\ntest('${name} returns ${n}', () => {\n  assert.equal(${name}(), ${n});\n});\n`,
                },
              },
            ],
          },
          {
            content: [
              {
                type: 'tool_use',
                name: 'Bash',
                input: {
                  command: `npm test && git add -A && git commit -q -m "feat: ${name}()"`,
                  description: 'Test and commit',
                },
              },
            ],
          },
          {
            // With the merge queue on, main holds the earlier items' tests too: none may fail.
            expect: { lastToolResultIncludes: 'fail 0' },
            structuredOutput: {
              role: 'implementor',
              outcome: 'completed',
              summary: `Added ${name}() and its test.`,
            },
          },
        ],
      },
    );
  }
  routes.push({
    name: 'planner',
    match: { systemIncludes: 'You are the planner', firstUserIncludes: `### ${SPEC_PATH} (added)` },
    steps: [
      {
        text: `The spec asks for ${ITEMS} independent modules.`,
        structuredOutput: {
          role: 'planner',
          create: Array.from({ length: ITEMS }, (_, i) => ({
            tempID: moduleName(i + 1),
            title: `Add ${moduleName(i + 1)}()`,
            body: `## Objective\nExport ${moduleName(i + 1)}() from src/${moduleName(i + 1)}.js returning ${i + 1}.\n\n## Spec Reference\n${SPEC_PATH}\n\n## Acceptance Criteria\n- [ ] ${moduleName(i + 1)}() returns ${i + 1}\n`,
            labels: [`priority:${PRIORITIES[i % PRIORITIES.length]}`, 'complexity:trivial'],
            blockedBy: [],
          })),
          close: [],
          update: [],
        },
      },
    ],
  });
  if (MODEL_LATENCY_MS > 0) {
    for (const route of routes) {
      for (const step of route.steps) step.delayMs = MODEL_LATENCY_MS;
    }
  }
  return { name: 'bench-pipeline', onUnmetExpectation: 'record', routes };
}

/** Epoch-ms timestamps of one item's milestones. */
interface ItemTimes {
  priority: string;
  created?: number;
  ready?: number;
  implementorRequested?: number;
  implementorStarted?: number;
  implementorCompleted?: number;
  revisionCreated?: number;
  checksStarted?: number;
  checksFinished?: number;
  checksSeen?: number;
  reviewerRequested?: number;
  reviewerCompleted?: number;
  approved?: number;
}

type Milestone = Exclude<keyof ItemTimes, 'priority'>;

const PHASES: { name: string; from: Milestone; to: Milestone }[] = [
  { name: 'queue wait (ready → implementor requested)', from: 'ready', to: 'implementorRequested' },
  {
    name: 'worktree setup + context (requested → started)',
    from: 'implementorRequested',
    to: 'implementorStarted',
  },
  { name: 'agent session (started → completed)', from: 'implementorStarted', to: 'implementorCompleted' },
  { name: 'revision creation (completed → revision)', from: 'implementorCompleted', to: 'revisionCreated' },
  { name: 'checks (revision → success seen)', from: 'revisionCreated', to: 'checksSeen' },
  { name: '  of which `npm test` run', from: 'checksStarted', to: 'checksFinished' },
  { name: 'review wait (success seen → reviewer requested)', from: 'checksSeen', to: 'reviewerRequested' },
  { name: 'review (reviewer requested → completed)', from: 'reviewerRequested', to: 'reviewerCompleted' },
  { name: 'total (created → approved)', from: 'created', to: 'approved' },
];

/** Records when the local checks runner starts and finishes each revision's checks; drops everything else. */
function createChecksLogger(onChecks: (revisionID: string, what: 'started' | 'finished') => void): Logger {
  const note = (message: string, fields?: LogFields) => {
    const revisionID = fields?.revisionID;
    if (typeof revisionID !== 'string') return;
    if (message === 'checks started') onChecks(revisionID, 'started');
    else if (message === 'checks success' || message === 'checks failure') onChecks(revisionID, 'finished');
  };
  return { debug: () => {}, info: note, warn: () => {}, error: () => {} };
}

async function runPipeline(root: string): Promise<ScaleRow> {
  const server = await createModelServer(buildScenario());
  const loaded = await loadConfig(root);
  if (!loaded.ok) throw new Error(`invalid configuration: ${loaded.errors.join('; ')}`);
  const items = new Map<string, ItemTimes>();
  const itemOf = (id: string) => {
    let times = items.get(id);
    if (!times) {
      times = { priority: '?' };
      items.set(id, times);
    }
    return times;
  };
  const sessions = new Map<string, string>();
  const revisionItems = new Map<string, string>();
  const setOnce = (times: ItemTimes, key: Milestone, at: number) => {
    times[key] ??= at;
  };
  // Checks start inside revision creation, before the revisionChanged event names the item: keyed by revision.
  const checksTimes = new Map<string, { started?: number; finished?: number }>();
  const logger = createChecksLogger((revisionID, what) => {
    const times = checksTimes.get(revisionID) ?? {};
    if (what === 'started') times.started ??= Date.now();
    else times.finished ??= Date.now();
    checksTimes.set(revisionID, times);
  });

  const controlPlane = await createControlPlane({
    repoRoot: root,
    config: loaded.config,
    logger,
    extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'flotilla-bench', ...GIT_ENV },
  });
  const { engine } = controlPlane;
  let plannerMs = Number.NaN;
  let plannerRequested = 0;
  // Run lifecycle events carry `at`; poller observations do not, so they are stamped when delivered.
  engine.onEvent((event: EngineEvent) => {
    const now = Date.now();
    switch (event.type) {
      case 'workItemChanged': {
        if (!event.workItem) return;
        const times = itemOf(event.workItemID);
        times.priority = event.workItem.priority ?? '—';
        if (event.oldStatus === null) setOnce(times, 'created', now);
        if (event.newStatus === 'ready') setOnce(times, 'ready', now);
        if (event.newStatus === 'approved') setOnce(times, 'approved', now);
        return;
      }
      case 'revisionChanged': {
        if (!event.workItemID) return;
        revisionItems.set(event.revisionID, event.workItemID);
        const times = itemOf(event.workItemID);
        setOnce(times, 'revisionCreated', now);
        if (event.newPipelineStatus === 'success') setOnce(times, 'checksSeen', now);
        return;
      }
      case 'plannerRequested':
        plannerRequested = event.at;
        return;
      case 'plannerCompleted':
        plannerMs = event.at - plannerRequested;
        return;
      case 'implementorRequested':
        sessions.set(event.sessionID, event.workItemID);
        setOnce(itemOf(event.workItemID), 'implementorRequested', event.at);
        return;
      case 'reviewerRequested':
        sessions.set(event.sessionID, event.workItemID);
        setOnce(itemOf(event.workItemID), 'reviewerRequested', event.at);
        return;
      case 'implementorStarted': {
        const id = sessions.get(event.sessionID);
        if (id) setOnce(itemOf(id), 'implementorStarted', event.at);
        return;
      }
      case 'implementorCompleted':
        setOnce(itemOf(event.workItemID), 'implementorCompleted', event.at);
        return;
      case 'reviewerCompleted':
        setOnce(itemOf(event.workItemID), 'reviewerCompleted', event.at);
        return;
      default:
        return;
    }
  });

  const { figures, observe } = createPipelineFigures();
  engine.onEvent(observe);
  let peakRunning = 0;
  engine.onEvent(() => {
    const running = Object.values(engine.getState().agentRuns).filter(
      (run) => run.status === 'running',
    ).length;
    peakRunning = Math.max(peakRunning, running);
  });

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
  }, TIMEOUT_S * 1000);
  timer.unref();
  const startedAt = Date.now();
  let endedAt = startedAt;
  const sampler = createProcessTreeSampler();
  const cpuAtStart = process.cpuUsage();
  let cpu = { user: 0, system: 0 };
  try {
    await engine.start();
    await waitUntilIdle(controlPlane, () => timedOut);
    endedAt = Date.now();
  } finally {
    cpu = process.cpuUsage(cpuAtStart);
    clearTimeout(timer);
    await controlPlane.close();
    await server.close();
  }
  const peaks = sampler.stop();

  for (const [revisionID, checks] of checksTimes) {
    const id = revisionItems.get(revisionID);
    if (!id) continue;
    if (checks.started !== undefined) setOnce(itemOf(id), 'checksStarted', checks.started);
    if (checks.finished !== undefined) setOnce(itemOf(id), 'checksFinished', checks.finished);
  }
  const state = engine.getState();
  const all = [...items.entries()].sort(([a], [b]) => Number(a) - Number(b));
  const approved = all.filter(([, times]) => times.approved !== undefined);
  const failedRuns = Object.values(state.agentRuns).filter((run) => run.status !== 'completed');
  const wallMs = endedAt - startedAt;
  const firstCreated = Math.min(...all.map(([, t]) => t.created ?? Number.POSITIVE_INFINITY));
  const lastApproved = Math.max(...approved.map(([, t]) => t.approved ?? 0));

  console.log(`pipeline: ${ITEMS} items, maxConcurrentAgents ${loaded.config.scheduler.maxConcurrentAgents}`);
  console.log(`  per item (n=${approved.length} approved)                       median      p90      max`);
  for (const phase of PHASES) {
    const values = approved
      .map(([, times]) => {
        const from = times[phase.from];
        const to = times[phase.to];
        return from !== undefined && to !== undefined ? to - from : undefined;
      })
      .filter((value): value is number => value !== undefined);
    console.log(
      `  ${phase.name.padEnd(52)} ${seconds(median(values)).padStart(8)} ${seconds(percentile(values, 90)).padStart(8)} ${seconds(values.length > 0 ? Math.max(...values) : Number.NaN).padStart(8)}`,
    );
  }
  const byPriority = PRIORITIES.map((priority) => {
    const waits = approved
      .filter(([, t]) => t.priority === priority)
      .map(([, t]) => (t.implementorRequested ?? 0) - (t.ready ?? 0));
    return `${priority} ${seconds(median(waits))}`;
  });
  console.log(`  median queue wait by priority: ${byPriority.join(', ')}`);
  console.log(`  planner session: ${seconds(plannerMs)}`);
  console.log(
    `  wall time: ${seconds(wallMs)} (start → idle); first item created → last approved ${seconds(lastApproved - firstCreated)}`,
  );
  console.log(
    `  throughput: ${((approved.length / wallMs) * 60_000).toFixed(2)} items/min (start → idle), ${((approved.length / (lastApproved - firstCreated)) * 60_000).toFixed(2)} items/min (created → approved)`,
  );
  const problems = server.report().problems;
  if (problems.length > 0) console.log(`  model server: ${problems.join('; ')}`);
  if (state.errors.length > 0)
    console.log(`  engine errors: ${state.errors.map((e) => e.message).join('; ')}`);
  if (failedRuns.length > 0) console.log(`  runs not completed: ${failedRuns.length}`);
  console.log(
    `  dispatches queued by reason: ${JSON.stringify(figures.queuedByReason)}; last resource wait shown: ${figures.lastResourceDetail ?? 'none'}`,
  );
  const merged = mergeWaits(figures);
  if (MERGE_QUEUE) {
    console.log(
      `  merge queue: ${merged.length} merged; approved → merged median ${seconds(median(merged))}, p90 ${seconds(percentile(merged, 90))}, max ${seconds(merged.length > 0 ? Math.max(...merged) : Number.NaN)}; steps ${JSON.stringify(figures.steps)}; longest queue ${figures.longestQueue}`,
    );
  }
  const queueWaits = approved.map(([, t]) => (t.implementorRequested ?? 0) - (t.ready ?? 0));
  const row: ScaleRow = {
    agents: loaded.config.scheduler.maxConcurrentAgents,
    approved: approved.length,
    merged: MERGE_QUEUE ? merged.length : null,
    wallMs,
    itemsPerMin: (approved.length / wallMs) * 60_000,
    queueWaitMedianMs: median(queueWaits),
    queueWaitP90Ms: percentile(queueWaits, 90),
    mergeWaitMedianMs: median(merged),
    mergeWaitP90Ms: percentile(merged, 90),
    longestMergeQueue: figures.longestQueue,
    resourceWaits: figures.queuedByReason.resources ?? 0,
    peakRunning,
    controlPlaneRss: peaks.selfRss,
    agentsRss: peaks.descendantsRss,
    controlPlaneCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    failedRuns: failedRuns.length,
  };
  console.log(
    `  peak RSS: control plane ${mib(row.controlPlaneRss)}, agent processes together ${mib(row.agentsRss)} (${peaks.descendants} processes at most); control-plane CPU ${row.controlPlaneCpuPercent.toFixed(0)}% of a core (includes the in-process scripted model server); peak running agents ${peakRunning}`,
  );
  if (timedOut || approved.length !== ITEMS || (MERGE_QUEUE && merged.length !== ITEMS)) {
    console.error(
      `expected ${ITEMS} approved${MERGE_QUEUE ? ' and merged' : ''} items, got ${approved.length}${MERGE_QUEUE ? ` / ${merged.length}` : ''}${timedOut ? ' (timed out)' : ''}`,
    );
    process.exitCode = 1;
  }
  return row;
}

async function compareWorktreeCreation(root: string): Promise<void> {
  const manager = createWorktreeManager({
    repoRoot: root,
    defaultBranch: 'main',
    setupCommand: 'none',
    logger: createChecksLogger(() => {}),
  });
  const git = (args: string[]) => runGit(args, { cwd: root, env: GIT_ENV });
  const bareDir = join(root, '.worktrees', 'bare');
  const times = {
    manager: { create: [] as number[], remove: [] as number[] },
    bare: { create: [] as number[], remove: [] as number[] },
  };

  async function viaManager(i: number): Promise<void> {
    const branch = `bench/manager-${i}`;
    let t = performance.now();
    await manager.create(branch);
    times.manager.create.push(performance.now() - t);
    t = performance.now();
    await manager.remove(branch);
    times.manager.remove.push(performance.now() - t);
  }

  async function bare(i: number): Promise<void> {
    const branch = `bench/bare-${i}`;
    const path = join(bareDir, String(i));
    let t = performance.now();
    await git(['worktree', 'add', path, '-b', branch, 'main']);
    times.bare.create.push(performance.now() - t);
    t = performance.now();
    await git(['worktree', 'remove', '--force', path]);
    await git(['branch', '-D', branch]);
    times.bare.remove.push(performance.now() - t);
  }

  // Warm-up, then interleaved so both see the same page cache and load.
  await viaManager(-1);
  await bare(-1);
  for (let i = 0; i < WORKTREE_RUNS; i += 1) {
    await viaManager(i);
    await bare(i);
  }
  await rm(bareDir, { recursive: true, force: true });

  const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;
  const sum = (t: { create: number[]; remove: number[] }) => t.create.map((c, i) => c + (t.remove[i] ?? 0));
  console.log(`worktree creation (${WORKTREE_RUNS} runs each, setup none, medians)`);
  console.log(
    `  worktree manager: create ${ms(times.manager.create)}, remove ${ms(times.manager.remove)}, both ${ms(sum(times.manager))}`,
  );
  console.log(
    `  bare git:         add ${ms(times.bare.create)}, remove + branch -D ${ms(times.bare.remove)}, both ${ms(sum(times.bare))}`,
  );
  console.log(
    `  ratio manager / bare: create ${(median(times.manager.create) / median(times.bare.create)).toFixed(2)}, create + remove ${(median(sum(times.manager)) / median(sum(times.bare))).toFixed(2)}`,
  );
}

async function main(): Promise<void> {
  const rows: ScaleRow[] = [];
  for (const agents of AGENT_COUNTS) {
    const root = await createRepository(agents);
    try {
      rows.push(await runPipeline(root));
      if (WORKTREE_RUNS > 0) await compareWorktreeCreation(root);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  if (rows.length > 1) printScaleTable(rows, ITEMS, MODEL_LATENCY_MS);
}

await main();
