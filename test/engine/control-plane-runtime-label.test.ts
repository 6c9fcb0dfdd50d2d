/**
 * `flotilla run`'s wiring (createControlPlane) with the planner on the CLI runtime (the fake agent CLI): the
 * planner labels the items it creates with `runtime:<name>`; the engine takes the label as the runtime of
 * their runs, and refuses an unknown name or an unavailable runtime at dispatch (the items are blocked with
 * a comment; no agent runs for them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import type { FakeAgentRound } from '../support/cli-runtime/fake-agent-cli.ts';
import { FAKE_AGENT_PROGRAM } from '../support/cli-runtime-fixture.ts';
import { createRunFixtures, FAKE_AGENT_LOOP_SETTINGS } from '../support/create-run-fixtures.ts';

describe('flotilla run wiring: runtime:<name> labels set by the planner', () => {
  const fixtures = createRunFixtures();
  afterEach(() => fixtures.cleanup());

  it('refuses a label naming no runtime and one naming a runtime whose program is missing', async () => {
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
    const scriptPath = await fixtures.fakeAgentScript(rounds);
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: {
          planner: {
            runtime: 'cli',
            preset: 'custom',
            program: FAKE_AGENT_PROGRAM,
            custom: { start: ['agent'], resume: null, sessionId: { from: 'none' } },
          },
        },
        ...FAKE_AGENT_LOOP_SETTINGS,
      },
      { message: 'planner on the CLI runtime' },
    );
    const controlPlane = await fixtures.startControlPlane(repo, {
      FAKE_AGENT_SCRIPT: scriptPath,
      // No gemini on this PATH, whatever the machine has installed.
      PATH: '/usr/bin:/bin',
    });

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
    const tracker = controlPlane.provider.localTracker;
    if (tracker === undefined) throw new Error('expected the local provider');
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
