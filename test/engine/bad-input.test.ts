/**
 * Bad input never stops the engine: a missing agent file, a broken spec frontmatter, a planner result naming
 * an unknown blocker or a cycle, a patch that no longer applies. Each gives an error naming what is wrong
 * where a user looks (engine errors, the run's error, a work item comment), and other work still completes.
 * The same wiring as `flotilla run` (createControlPlane), agents through the real Claude Agent SDK answered
 * by the scripted model server. (Malformed config: test/cli/run-command.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlPlane } from '../../src/app/create-control-plane.ts';
import { waitUntilIdle } from '../../src/app/wait-until-idle.ts';
import type { WorkItemStatus } from '../../src/domain/index.ts';
import type { ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

interface Harness {
  root: string;
  server: ModelServer;
  controlPlane: ControlPlane;
  /** Writes the files and commits them on `main` (what a user pushing to the default branch does). */
  commit(files: Record<string, string>, message: string): void;
  status(id: string): WorkItemStatus | undefined;
  comments(id: string): string[];
  errors(): string[];
}

/**
 * A demo repository (agents, an approved spec) with fast polls, retries and no checks command, changed by
 * `prepare` and committed, then a started control plane whose agents talk to a model server playing
 * `scenario`.
 */
async function startHarness(
  scenario: ScenarioSpec,
  prepare: (root: string) => Promise<void> = async () => {},
): Promise<Harness> {
  const repo = await fixtures.configuredDemoRepository(
    {
      checks: { command: null },
      pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
      scheduler: { retryBaseDelay: 1, retryMaxDelay: 1, maxAttempts: 2 },
      maxAgentDuration: 60,
    },
    { prepare },
  );
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } }).toString();
  const commit = (files: Record<string, string>, message: string) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(repo.root, path)), { recursive: true });
      writeFileSync(join(repo.root, path), content);
    }
    git(['add', '--', ...Object.keys(files)]);
    git(['commit', '--quiet', '-m', message]);
  };

  const server = await fixtures.serve(scenario);
  const controlPlane = await fixtures.startControlPlane(repo, {
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'test-key',
  });

  const { engine } = controlPlane;
  return {
    root: repo.root,
    server,
    controlPlane,
    commit,
    status: (id) => engine.getState().workItems[id]?.status,
    comments: (id) =>
      localTrackerOf(controlPlane)
        .workItems.getWorkItemComments(id)
        .map((comment) => comment.body),
    errors: () => engine.getState().errors.map((error) => error.message),
  };
}

/**
 * Polls `check` (refreshing the engine) until it holds; past `timeoutMs` throws with the engine's state. The
 * waits span several real SDK sessions, which under load take far longer than alone: the deadline is generous,
 * and each test's own timeout is longer still so that this message, not vitest's, says what did not happen.
 */
async function waitFor(harness: Harness, check: () => boolean, what: string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      const state = harness.controlPlane.engine.getState();
      const items = Object.values(state.workItems).map((item) => `#${item.id} ${item.status}`);
      const runs = Object.values(state.agentRuns).map(
        (run) => `${run.role} ${run.status} ${run.error ?? ''}`,
      );
      throw new Error(
        `timed out waiting for ${what}\nitems: ${items.join(', ')}\nruns: ${runs.join('; ')}\nerrors: ${harness.errors().join('\n')}\nmodel server: ${harness.server.report().problems.join('\n')}`,
      );
    }
    harness.controlPlane.engine.refresh();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface PlannedItem {
  tempID: string;
  title: string;
  blockedBy: string[];
}

function plan(items: PlannedItem[]) {
  return {
    role: 'planner',
    create: items.map((item) => ({ ...item, body: `Objective: ${item.title}.`, labels: [] })),
    close: [],
    update: [],
  };
}

/** An implementor writing one new file, then completing. */
function implementorWriting(workItemID: string, path: string, extraDelayMs = 0) {
  return {
    name: `implementor-${workItemID}`,
    match: { systemIncludes: 'You are the implementor', firstUserIncludes: `## Work Item #${workItemID} —` },
    steps: [
      {
        content: [
          {
            type: 'tool_use' as const,
            name: 'Write',
            input: { file_path: `{{cwd}}/${path}`, content: `export const item${workItemID} = true;\n` },
          },
        ],
      },
      {
        ...(extraDelayMs > 0 && { delayMs: extraDelayMs }),
        structuredOutput: { role: 'implementor', outcome: 'completed', summary: `wrote ${path}` },
      },
    ],
  };
}

/** Steps are per session: every reviewer session gets this one reply. */
const reviewerApproving = {
  name: 'reviewer',
  match: { systemIncludes: 'You are the reviewer' },
  steps: [
    { structuredOutput: { role: 'reviewer', review: { verdict: 'approve', summary: 'ok', comments: [] } } },
  ],
};

describe('bad input: a clear error, and the engine keeps running', () => {
  it('a missing agent file fails the run naming the file, parks the item at once (a retry would repeat it), and work resumes once it is restored', async () => {
    let original = '';
    const harness = await startHarness(
      {
        name: 'missing-agent-file',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [
              {
                structuredOutput: plan([
                  { tempID: 'greet', title: 'Add greet', blockedBy: [] },
                  { tempID: 'farewell', title: 'Add farewell', blockedBy: ['greet'] },
                ]),
              },
            ],
          },
          implementorWriting('1', 'src/greet.js'),
          implementorWriting('2', 'src/farewell.js'),
          reviewerApproving,
        ],
      },
      async (root) => {
        original = await readFile(join(root, '.claude/agents/implementor.md'), 'utf8');
        await unlink(join(root, '.claude/agents/implementor.md'));
      },
    );
    const agentFile = join(harness.root, '.claude/agents/implementor.md');

    await waitFor(harness, () => harness.status('1') === 'blocked', 'item #1 to be parked');
    const state = harness.controlPlane.engine.getState();
    const failed = Object.values(state.agentRuns).filter((run) => run.role === 'implementor');
    expect(failed.map((run) => run.status)).toEqual(['failed']);
    for (const run of failed) {
      expect(run.error).toContain('.claude/agents/implementor.md');
      expect(run.error).toMatch(/Cannot read the implementor agent definition/);
    }
    const parked = harness.comments('1').join('\n');
    expect(parked).toContain('.claude/agents/implementor.md');
    expect(harness.status('2')).toBe('pending');

    // A human restores the file and moves the item back (`flotilla work transition 1 pending`).
    await writeFile(agentFile, original);
    localTrackerOf(harness.controlPlane).workItems.transitionStatus('1', 'pending');
    await waitFor(
      harness,
      () => harness.status('1') === 'approved' && harness.status('2') === 'approved',
      'both items to be approved',
    );
    expect(harness.server.report().problems).toEqual([]);
  }, 240_000);

  it('a spec with broken frontmatter is reported by name and what was expected; the valid approved spec is still planned', async () => {
    const harness = await startHarness(
      {
        name: 'broken-frontmatter',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [
              {
                expect: {
                  firstUserIncludes: '### docs/specs/greetings.md (added)',
                  messagesExclude: 'docs/specs/broken.md',
                },
                structuredOutput: plan([]),
              },
            ],
          },
        ],
      },
      async (root) => {
        await mkdir(join(root, 'docs/specs'), { recursive: true });
        await writeFile(
          join(root, 'docs/specs/broken.md'),
          '---\nstatus: [approved\n---\n# Broken\n\nNot plannable.\n',
        );
      },
    );

    await waitFor(
      harness,
      () => harness.controlPlane.engine.getState().lastPlannedSHAs['docs/specs/greetings.md'] !== undefined,
      'the valid spec to be planned',
    );
    const errors = harness.errors();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^docs\/specs\/broken\.md: broken frontmatter, treated as draft: invalid YAML/);
    expect(errors[0]).toContain('expected "status: draft", "status: approved" or "status: deprecated"');
    const runs = Object.values(harness.controlPlane.engine.getState().agentRuns);
    expect(runs.map((run) => [run.role, run.status, run.role === 'planner' ? run.specPaths : []])).toEqual([
      ['planner', 'completed', ['docs/specs/greetings.md']],
    ]);
    expect(harness.controlPlane.engine.getState().specs['docs/specs/broken.md']?.frontmatterStatus).toBe(
      'draft',
    );
    expect(harness.server.report().problems).toEqual([]);
  }, 240_000);

  it('planner results naming an unknown blocker or forming a cycle are rejected whole, saying which; a later valid plan is applied', async () => {
    const spec = (variant: string) =>
      `---\nstatus: approved\n---\n# Greetings\n\nThe library greets people (${variant}).\n`;
    const planner = (variant: string, result: ReturnType<typeof plan>) => ({
      name: `planner-${variant}`,
      match: { systemIncludes: 'You are the planner', firstUserIncludes: `(${variant})` },
      steps: [{ structuredOutput: result }],
    });
    // A later spec's diff still shows the earlier variant, so later variants are matched first.
    const harness = await startHarness(
      {
        name: 'bad-plans',
        routes: [
          planner('variant-3', plan([{ tempID: 'greet', title: 'Add greet', blockedBy: [] }])),
          planner(
            'variant-2',
            plan([
              { tempID: 'a', title: 'A', blockedBy: ['b'] },
              { tempID: 'b', title: 'B', blockedBy: ['a'] },
            ]),
          ),
          planner('variant-1', plan([{ tempID: 'a', title: 'A', blockedBy: ['ghost'] }])),
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [
              {
                structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'stopping here' },
              },
            ],
          },
        ],
      },
      async (root) => {
        await writeFile(join(root, 'docs/specs/greetings.md'), spec('variant-1'));
      },
    );
    const plannerErrors = () =>
      harness.errors().filter((message) => message.startsWith('applyPlannerResult'));

    await waitFor(harness, () => plannerErrors().length === 1, 'the unknown blocker to be rejected');
    expect(plannerErrors()[0]).toBe(
      "applyPlannerResult failed: planner result rejected, nothing written: create 'a' is blocked by 'ghost', which is neither a tempID in this result nor an existing work item",
    );
    expect(localTrackerOf(harness.controlPlane).workItems.listWorkItems()).toEqual([]);

    harness.commit({ 'docs/specs/greetings.md': spec('variant-2') }, 'spec: variant 2');
    await waitFor(harness, () => plannerErrors().length === 2, 'the cycle to be rejected');
    expect(plannerErrors()[1]).toBe(
      'applyPlannerResult failed: planner result rejected, nothing written: dependency cycle between planned items: a → b → a',
    );
    expect(localTrackerOf(harness.controlPlane).workItems.listWorkItems()).toEqual([]);

    harness.commit({ 'docs/specs/greetings.md': spec('variant-3') }, 'spec: variant 3');
    await waitFor(
      harness,
      () => harness.status('1') === 'blocked',
      'the valid plan to be applied and worked',
    );
    expect(
      localTrackerOf(harness.controlPlane)
        .workItems.listWorkItems()
        .map((item) => item.title),
    ).toEqual(['Add greet']);
    expect(plannerErrors()).toHaveLength(2);
    expect(harness.server.report().problems).toEqual([]);
  }, 240_000);

  it('a patch that no longer applies to the default branch parks the item with a comment naming the file; other items still complete', async () => {
    const harness = await startHarness({
      name: 'conflicting-patch',
      routes: [
        {
          name: 'planner',
          match: { systemIncludes: 'You are the planner' },
          steps: [
            {
              structuredOutput: plan([
                { tempID: 'greet', title: 'Add greet', blockedBy: [] },
                { tempID: 'farewell', title: 'Add farewell', blockedBy: [] },
              ]),
            },
          ],
        },
        // #1's result is held back long enough for the default branch to move under it.
        implementorWriting('1', 'src/greet.js', 1500),
        implementorWriting('2', 'src/farewell.js'),
        reviewerApproving,
      ],
    });

    await waitFor(
      harness,
      () =>
        harness.server.requests.some(
          (request) => request.route === 'implementor-1' && request.stepIndex === 1,
        ),
      "#1's implementor to have written its file",
    );
    // Someone lands a different src/greet.js on main meanwhile.
    harness.commit({ 'src/greet.js': 'export const greet = () => "hi";\n' }, 'greet on main');

    await waitFor(
      harness,
      () => harness.status('1') === 'blocked' && harness.status('2') === 'approved',
      '#1 to be parked and #2 approved',
    );
    const comment = harness.comments('1').join('\n');
    expect(comment).toContain("could not create a revision from the implementor's patch");
    expect(comment).toContain('src/greet.js');
    expect(
      harness
        .errors()
        .some((message) => message.includes('applyImplementorResult') && message.includes('src/greet.js')),
    ).toBe(true);
    await waitUntilIdle(harness.controlPlane);
    expect(harness.server.report().problems).toEqual([]);
  }, 240_000);
});

/** The SQLite tracker under the local provider these tests run on. */
function localTrackerOf(controlPlane: ControlPlane) {
  const tracker = controlPlane.provider.localTracker;
  if (tracker === undefined) throw new Error('expected the local provider');
  return tracker;
}
