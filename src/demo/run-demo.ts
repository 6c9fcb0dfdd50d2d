import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentRun, EngineEvent } from '../domain/index.ts';
import { createEngine } from '../engine/create-engine.ts';
import { createBashValidatorHook } from '../engine/runtime-adapter/bash-validator/create-bash-validator-hook.ts';
import { createClaudeAdapter } from '../engine/runtime-adapter/create-claude-adapter.ts';
import type { Logger } from '../logging/logger.ts';
import { createModelServer } from '../model-server/create-model-server.ts';
import { loadScenarioFile } from '../model-server/load-scenario-file.ts';
import { createLocalProvider } from '../providers/local/create-local-provider.ts';
import { createEngineStatePersistence, openDatabase } from '../storage/index.ts';
import { createDemoRepository } from './create-demo-repository.ts';

export interface DemoOptions {
  keep: boolean;
  /** Progress lines and the summary. */
  print: (line: string) => void;
  logger: Logger;
  /** Seconds before the demo gives up. */
  timeout?: number;
}

export interface DemoOutcome {
  ok: boolean;
  repoRoot: string;
  runs: AgentRun[];
  approved: number;
}

const SCENARIO_PATH = join(import.meta.dirname, 'demo-scenario.json');

function describeEvent(event: EngineEvent): string | null {
  switch (event.type) {
    case 'specChanged':
      return `spec ${event.filePath} ${event.changeType} (${event.frontmatterStatus})`;
    case 'workItemChanged':
      if (!event.workItem) return null;
      return event.oldStatus === null
        ? `work item #${event.workItemID} "${event.workItem.title}" created (${event.newStatus})`
        : `work item #${event.workItemID} ${event.oldStatus} → ${event.newStatus}`;
    case 'plannerStarted':
    case 'implementorStarted':
    case 'reviewerStarted':
      return `${event.type.replace('Started', '')} started (session ${event.sessionID.slice(0, 8)})`;
    case 'implementorCompleted':
      return `implementor finished #${event.workItemID}: ${event.result.outcome}`;
    case 'reviewerCompleted':
      return `reviewer finished #${event.workItemID}: ${event.result.review.verdict} — ${event.result.review.summary}`;
    case 'plannerCompleted':
      return `planner finished: ${event.result.create.length} item(s) to create`;
    case 'plannerFailed':
    case 'implementorFailed':
    case 'reviewerFailed':
      return `${event.type.replace('Failed', '')} failed (${event.reason}): ${event.error}`;
    case 'revisionChanged':
      return event.revision && event.oldPipelineStatus === null
        ? `revision ${event.revisionID} created on ${event.revision.headRef} for #${event.workItemID}`
        : null;
    case 'commandFailed':
      return `command ${event.command.type} failed: ${event.error}`;
    case 'errorRecorded':
      return `error (${event.source}): ${event.message}`;
    default:
      return null;
  }
}

/**
 * The whole loop in a throwaway repository with the REAL Claude Agent SDK, answered by the scripted model
 * server (no network, no API key): an approved spec is planned into two items (the second blocked by the
 * first), each is implemented in a worktree with a test and committed, the reviewer asks for changes once,
 * the item is reworked and approved, then the second item follows. Everything goes through the
 * local provider (SQLite + real branches + `npm test` as the checks), like `flotilla run` in a real repo.
 */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const { print, logger } = options;
  const repo = await createDemoRepository();
  print(`demo repository: ${repo.root}`);
  const server = await createModelServer(await loadScenarioFile(SCENARIO_PATH));
  print(`scripted model server: ${server.url}`);
  // The local provider: work items and reviews in SQLite, revisions as real branches, `npm test` as checks.
  const db = openDatabase(join(repo.root, '.flotilla', 'flotilla.db'));
  const persistence = createEngineStatePersistence(db);
  const provider = createLocalProvider({
    repoRoot: repo.root,
    defaultBranch: 'main',
    specsDir: 'docs/specs',
    db,
    checksCommand: 'npm test',
    checksTimeoutMs: 120_000,
    logsDir: join(repo.root, '.flotilla', 'logs', 'checks'),
    logger,
  });
  const logsDir = join(repo.root, '.flotilla', 'logs');
  const startedAt = Date.now();
  const engine = createEngine({
    provider,
    logger,
    initialState: persistence.loadInitialState(),
    pollIntervals: { workItems: 2, revisions: 2, specs: 2 },
    shutdownTimeout: 30,
    createRuntimeAdapters: (deps) => {
      const adapter = createClaudeAdapter(
        {
          repoRoot: repo.root,
          defaultBranch: 'main',
          contextPaths: ['.claude/CLAUDE.md'],
          bashValidatorHook: createBashValidatorHook(),
          logger,
          setupCommand: 'none',
          stateDir: join(repo.root, '.flotilla', 'claude'),
          maxAgentDuration: 300,
          logging: { agentSessions: true, logsDir },
          extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'flotilla-demo', ...repo.gitEnv },
        },
        deps,
      );
      return { planner: adapter, implementor: adapter, reviewer: adapter };
    },
  });
  engine.onEvent((event, state) => {
    persistence.record(event, state);
    const line = describeEvent(event);
    if (line) print(`  [${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s] ${line}`);
  });

  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
    },
    (options.timeout ?? 120) * 1000,
  );
  timer.unref();
  try {
    await engine.start();
    // Idle = nothing queued or running and no checks pending after a fresh poll, twice in a row.
    for (let quiet = 0; quiet < 2 && !timedOut; ) {
      await engine.whenQuiescent();
      await provider.runPendingChecks();
      await engine.pollNow();
      await engine.whenQuiescent();
      const state = engine.getState();
      const busy =
        Object.values(state.agentRuns).some(
          (run) => run.status === 'requested' || run.status === 'running',
        ) || Object.values(state.revisions).some((revision) => revision.pipeline?.status === 'pending');
      quiet = busy ? 0 : quiet + 1;
    }
  } finally {
    clearTimeout(timer);
    await engine.stop();
    await server.close();
  }
  try {
    return await summarize();
  } finally {
    provider.close();
    db.close();
  }

  async function summarize(): Promise<DemoOutcome> {
    const state = engine.getState();
    const runs = Object.values(state.agentRuns).sort((a, b) => a.requestedAt - b.requestedAt);
    const items = Object.values(state.workItems).sort((a, b) => Number(a.id) - Number(b.id));
    print('');
    print(`Summary (${((Date.now() - startedAt) / 1000).toFixed(1)}s)`);
    print('  work items:');
    for (const item of items) {
      const revision = item.linkedRevision ? state.revisions[item.linkedRevision] : undefined;
      const reviews = revision
        ? provider.tracker.revisions
            .listReviews(revision.id)
            .map((review) => review.state)
            .join(', ')
        : '';
      const checks = revision?.pipeline ? `checks ${revision.pipeline.status}` : 'checks unknown';
      print(
        `    #${item.id} ${item.status.padEnd(16)} ${item.title}${revision ? `  — revision ${revision.id} on branch ${revision.headRef} @ ${revision.headSHA.slice(0, 8)} (${checks}${reviews ? `; reviews: ${reviews}` : ''})` : ''}`,
      );
    }
    print('  agent runs:');
    for (const run of runs) {
      const subject = run.role === 'planner' ? run.specPaths.join(', ') : `#${run.workItemID}`;
      const duration = run.endedAt ? `${((run.endedAt - run.requestedAt) / 1000).toFixed(1)}s` : '—';
      const cost = run.usage?.costUSD != null ? `$${run.usage.costUSD.toFixed(4)}` : '';
      print(
        `    ${run.role.padEnd(11)} ${subject.padEnd(24)} ${run.status.padEnd(10)} ${duration.padStart(6)} ${cost}`,
      );
      if (run.logFilePath && options.keep) print(`      transcript: ${run.logFilePath}`);
    }
    const problems = server.report().problems;
    if (problems.length > 0) print(`  model server: ${problems.join('; ')}`);
    const approved = items.filter((item) => item.status === 'approved').length;
    const ok = !timedOut && approved === items.length && items.length === 2 && state.errors.length === 0;
    if (state.errors.length > 0) print(`  errors: ${state.errors.map((error) => error.message).join('; ')}`);
    if (options.keep) {
      print(
        `\nThe repository is kept at ${repo.root} (revisions are on branches ${items.map((item) => `flotilla/${item.id}`).join(', ')}; agent worktrees were removed; transcripts and checks logs are in ${logsDir}).`,
      );
    } else {
      await rm(repo.root, { recursive: true, force: true });
      print('\nThe demo repository and its transcripts were removed (use --keep to inspect them).');
    }
    return { ok, repoRoot: repo.root, runs, approved };
  }
}
