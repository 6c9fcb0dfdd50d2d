/**
 * `flotilla run`'s wiring (createControlPlane) with the planner on the CLI runtime (the fake agent CLI): the
 * planner labels the items it creates with `runtime:<name>`; the engine takes the label as the runtime of
 * their runs, and refuses an unknown name or an unavailable runtime at dispatch (the items are blocked with
 * a comment; no agent runs for them).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createControlPlane } from '../../src/app/create-control-plane.ts';
import { createDemoRepository } from '../../src/app/demo/create-demo-repository.ts';
import { loadConfig } from '../../src/config/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import type { FakeAgentRound } from '../../src/runtimes/cli/test-support/fake-agent-cli.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { FAKE_AGENT_PROGRAM } from '../support/cli-runtime-fixture.ts';

describe('flotilla run wiring: runtime:<name> labels set by the planner', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('refuses a label naming no runtime and one naming a runtime whose program is missing', async () => {
    const repo = await createDemoRepository();
    cleanups.push(() => rm(repo.root, { recursive: true, force: true }));
    const scriptDir = await mkdtemp(join(tmpdir(), 'flotilla-runtime-label-'));
    cleanups.push(() => rm(scriptDir, { recursive: true, force: true }));
    const scriptPath = join(scriptDir, 'script.json');
    const item = (tempID: string, label: string) => ({
      tempID,
      title: `On ${label}`,
      body: 'Objective: greet.',
      labels: [label],
      blockedBy: [],
    });
    const rounds: FakeAgentRound[] = [
      {
        steps: [
          {
            signal: {
              status: 'done',
              result: {
                create: [item('a', 'runtime:gpt-9'), item('b', 'runtime:cli:gemini')],
                close: [],
                update: [],
              },
            },
          },
        ],
      },
    ];
    await writeFile(scriptPath, JSON.stringify({ rounds }));
    const configPath = join(repo.root, 'flotilla.config.json');
    const config: Record<string, unknown> = JSON.parse(await readFile(configPath, 'utf8'));
    await writeFile(
      configPath,
      JSON.stringify({
        ...config,
        runtimes: {
          planner: {
            runtime: 'cli',
            preset: 'custom',
            program: FAKE_AGENT_PROGRAM,
            custom: { start: ['agent'], resume: null, sessionId: { from: 'none' } },
          },
        },
        checks: { command: null },
        worktree: { setupCommand: 'none' },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
      }),
    );
    execFileSync('git', ['commit', '--quiet', '-am', 'planner on the CLI runtime'], {
      cwd: repo.root,
      env: { ...process.env, ...repo.gitEnv },
    });
    const loaded = await loadConfig(repo.root);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const controlPlane = await createControlPlane({
      repoRoot: repo.root,
      config: loaded.config,
      logger: silentLogger,
      // No gemini on this PATH, whatever the machine has installed.
      extraEnv: { FAKE_AGENT_SCRIPT: scriptPath, PATH: '/usr/bin:/bin', ...repo.gitEnv },
    });
    cleanups.push(() => controlPlane.close());
    await controlPlane.engine.start();

    const state = () => controlPlane.engine.getState();
    await waitUntil(
      () => Object.values(state().workItems).filter((workItem) => workItem.status === 'blocked').length === 2,
      60_000,
      'both planned items to be blocked',
    );
    expect(
      Object.values(state().agentRuns)
        .sort((a, b) => a.requestedAt - b.requestedAt)
        .map((run) => [run.role, run.status, run.runtime ?? null]),
    ).toEqual([
      ['planner', 'completed', 'cli:custom'],
      ['implementor', 'failed', null],
      ['implementor', 'failed', null],
    ]);
    if (controlPlane.provider.kind !== 'local') throw new Error('expected the local provider');
    const { tracker } = controlPlane.provider;
    const lastComment = (id: string) => tracker.workItems.getWorkItemComments(id).at(-1)?.body ?? '';
    expect(lastComment('1')).toContain(
      'the implementor run was not started: the label runtime:gpt-9 names no runtime; known: claude, codex, cli:claude',
    );
    expect(lastComment('2')).toContain(
      "the implementor run was not started: runtime 'cli:gemini' is unavailable: gemini (CLI preset gemini) is not an executable on PATH",
    );
    expect(tracker.workItems.getWorkItemLabels('2')).toContain('runtime:cli:gemini');
  }, 120_000);
});
