/**
 * Automatic refinement (issue #29 §1: `refine` runs for "an item in `needs-refinement`, or labelled
 * `task:refinement`"), through the whole control plane: the real Claude Agent SDK binary against the scripted
 * model server, the local provider on SQLite and a real git repository. The planner cannot make a spec precise
 * and files a vague `task:refinement` item instead of a guess; with `modes.refine.auto` (the default) the
 * engine refines it on its own; with `approval.refinements: required` the refinement waits as a proposal;
 * `flotilla proposals accept` rewrites the item, which goes back to pending and is implemented and approved.
 * The refiner is asked once (no loop while the proposal waits). Second: a `task:implement` item whose run
 * changed nothing lands in needs-refinement, is refined (applied at once, `approval.refinements: auto`) and
 * the precise item is implemented and approved: implement (no-changes) → refine → implement.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { buildModeAgentFile } from '../../src/runtimes/claude/mode-agent-files.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import {
  APPROVING_REVIEWER_ROUTE,
  FAREWELL_CRITERION,
  FAREWELL_IMPLEMENTOR_ROUTE,
  FAREWELL_REFINE_REPORT,
} from '../support/farewell-refinement-routes.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const VAGUE_BODY = 'Users should be able to say goodbye somehow; nobody decided how.';

const scenario: ScenarioSpec = {
  name: 'auto-refine',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [
        {
          structuredOutput: {
            role: 'planner',
            create: [
              {
                tempID: 'vague',
                title: 'Say goodbye somehow',
                body: VAGUE_BODY,
                labels: ['task:refinement'],
                blockedBy: [],
              },
            ],
            close: [],
            update: [],
          },
        },
      ],
    },
    {
      name: 'refiner',
      match: { systemIncludes: 'You turn one vague work item into a precise one' },
      steps: [
        {
          // Matched by the item's body, never by a title (a task context may name siblings' titles).
          expect: { firstUserIncludes: VAGUE_BODY },
          structuredOutput: FAREWELL_REFINE_REPORT,
        },
      ],
    },
    FAREWELL_IMPLEMENTOR_ROUTE,
    APPROVING_REVIEWER_ROUTE,
  ],
};

describe('automatic refinement on the Claude runtime (real SDK)', () => {
  it("refines a planner's task:refinement item on its own; accepted, the item is implemented and approved", async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'scenario.json',
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        validation: { commands: [] },
        approval: { refinements: 'required' },
      },
      {
        prepare: async (root) => {
          await writeFile(join(root, 'scenario.json'), JSON.stringify(scenario));
          await writeFile(join(root, '.claude', 'agents', 'refine.md'), buildModeAgentFile('refine'));
        },
        message: 'Auto refine scenario',
      },
    );
    const controlPlane = await fixtures.startControlPlane(repo);
    const state = () => controlPlane.engine.getState();
    const proposal = () =>
      Object.values(state().proposals).find((candidate) => candidate.kind === 'refinement');

    await waitUntil(() => proposal()?.status === 'pending', 120_000, 'the refinement proposal');
    const itemID = proposal()!.subjectID!;
    expect(state().workItems[itemID]).toMatchObject({ kind: 'refinement', status: 'needs-refinement' });
    // A few polls (1 s each) later, still one refine run: the waiting proposal holds the item.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const refines = () =>
      controlPlane.persistence
        .listRuns()
        .filter((run) => run.role === 'implementor' && run.mode === 'refine');
    expect(refines()).toHaveLength(1);

    expect((await runFlotillaInProcess(repo.root, ['proposals', 'accept', proposal()!.id])).code).toBe(0);
    await waitUntil(
      () => state().workItems[itemID]?.status === 'approved',
      180_000,
      'the refined item approved',
    );
    expect(state().workItems[itemID]).toMatchObject({
      kind: 'task',
      title: 'Add farewell(name)',
      complexity: 'trivial',
    });
    expect(refines()).toHaveLength(1);
  }, 400_000);

  it('refines an item whose run changed nothing; applied at once, the precise item is implemented', async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'scenario.json',
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        scheduler: { retryBaseDelay: 1, retryMaxDelay: 1 },
        validation: { commands: [] },
      },
      {
        prepare: async (root) => {
          await writeFile(join(root, 'scenario.json'), JSON.stringify(noChangesScenario));
          await writeFile(join(root, '.claude', 'agents', 'refine.md'), buildModeAgentFile('refine'));
        },
        message: 'Auto refine after no changes',
      },
    );
    const controlPlane = await fixtures.startControlPlane(repo);
    const state = () => controlPlane.engine.getState();
    const item = () => Object.values(state().workItems).find((candidate) => candidate.kind === 'task');

    await waitUntil(() => item()?.status === 'approved', 240_000, 'the refined item approved');
    expect(item()).toMatchObject({ title: 'Add farewell(name)', complexity: 'trivial' });
    const runs = controlPlane.persistence
      .listRuns()
      .filter((run) => run.role === 'implementor')
      .sort((a, b) => a.requestedAt - b.requestedAt)
      .map((run) => [run.role === 'implementor' ? (run.mode ?? 'implement') : null, run.status]);
    expect(runs).toEqual([
      ['implement', 'failed'],
      ['refine', 'completed'],
      ['implement', 'completed'],
    ]);
  }, 400_000);
});

/** The planner's item is vague; its implementor changes nothing; the refined item is implemented. */
const noChangesScenario: ScenarioSpec = {
  name: 'auto-refine-no-changes',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [
        {
          structuredOutput: {
            role: 'planner',
            create: [
              {
                tempID: 'vague',
                title: 'Say goodbye',
                body: VAGUE_BODY,
                labels: ['task:implement'],
                blockedBy: [],
              },
            ],
            close: [],
            update: [],
          },
        },
      ],
    },
    {
      name: 'refiner',
      match: { systemIncludes: 'You turn one vague work item into a precise one' },
      steps: [{ expect: { firstUserIncludes: VAGUE_BODY }, ...scenario.routes[1]!.steps[0]! }],
    },
    // Routes are tried in order: the refined item's implementor first, by its acceptance criterion.
    scenario.routes[2]!,
    {
      name: 'vague-implementor',
      match: { systemIncludes: 'You are the implementor', firstUserIncludes: VAGUE_BODY },
      steps: [
        { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Nothing to change.' } },
      ],
    },
    scenario.routes[3]!,
  ],
};
