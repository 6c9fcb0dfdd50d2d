/**
 * Issue #28 end to end, on the real claude binary against the scripted model server: run 2 of an item (its
 * reviewer) is given run 1's summary in its prompt's task context; `work show` and `flotilla prompt` show
 * it; a prompt template with an unknown variable stops `flotilla run` before anything runs, naming the file
 * and line.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/model-server/index.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { APPROVE, GREET_COMPLETED, oneItemScenario, WRITE_GREET } from '../support/run-scenarios.ts';
import { startFlotillaProcess } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const SUMMARY = 'greet(name) added in src/greet.js; it returns Hello, <name>!';

/** One item: the implementor writes greet and completes with SUMMARY; the reviewer's prompt is kept. */
function reviewerSeesSummaryScenario(): { scenario: Scenario; reviewerPrompts: string[] } {
  const reviewerPrompts: string[] = [];
  const scenario = oneItemScenario('task-context', [
    { content: [WRITE_GREET] },
    { structuredOutput: { ...GREET_COMPLETED, summary: SUMMARY } },
  ]);
  const reviewer = scenario.routes.find((route) => route.name === 'reviewer');
  if (reviewer === undefined) throw new Error('oneItemScenario has no reviewer route');
  reviewer.steps = [
    {
      respond: (request) => {
        reviewerPrompts.push(request.firstUser);
        return { structuredOutput: APPROVE };
      },
    },
  ];
  return { scenario, reviewerPrompts };
}

describe('task context and prompt templates in flotilla run', () => {
  it("run 2 of an item sees run 1's summary; work show and flotilla prompt list it", async () => {
    const repo = await fixtures.demoRepository();
    const { scenario, reviewerPrompts } = reviewerSeesSummaryScenario();
    const server = await fixtures.serve(scenario);
    const env = { ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' };
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--until-idle'],
      env,
    });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('work item #1 review → approved');

    expect(reviewerPrompts).toHaveLength(1);
    const prompt = reviewerPrompts[0] as string;
    expect(prompt).toContain('## Task context');
    expect(prompt).toMatch(/### \[implementor · claude\] implementation_summary — .* \(run [0-9a-f-]+\)/);
    expect(prompt).toContain(SUMMARY);
    expect(prompt).toContain('Files: src/greet.js');
    // The plan that created the item comes first (issue #28 §1 plan_summary; this planner gave no summary).
    expect(prompt).toMatch(
      /### \[planner · claude\] plan_summary — [^\n]*\n+The planner planned from docs\/specs\//,
    );
    expect(prompt.indexOf('plan_summary')).toBeLessThan(prompt.indexOf('implementation_summary'));
    // The reviewer's own section follows the task context.
    expect(prompt.indexOf('## Task context')).toBeLessThan(prompt.indexOf(SUMMARY));
    expect(prompt.indexOf('## Work Item #1')).toBeGreaterThan(prompt.indexOf(SUMMARY));

    const flotilla = (args: string[]) =>
      execFileSync(process.execPath, [FLOTILLA_BIN, ...args], {
        cwd: repo.root,
        env: { ...process.env, ...repo.gitEnv },
      }).toString();
    const shown = flotilla(['work', 'show', '1']);
    expect(shown).toContain('Task context (3, oldest first):');
    expect(shown).toMatch(/implementation_summary \[implementor · claude\]/);
    expect(shown).toMatch(/review_approved \[reviewer · claude\]/);
    const json = JSON.parse(flotilla(['work', 'show', '1', '--json'])) as { taskContext: { type: string }[] };
    expect(json.taskContext.map((entry) => entry.type)).toEqual([
      'plan_summary',
      'implementation_summary',
      'review_approved',
    ]);
    // The next implementor of the item would start from both entries, oldest first.
    const next = flotilla(['prompt', 'implementor', '1']);
    expect(next.startsWith('## Task context')).toBe(true);
    expect(next.indexOf('implementation_summary')).toBeLessThan(next.indexOf('review_approved'));
    expect(next).toContain('## Work Item #1');
    // As a rework's run would: its worktree starts from the item's revision (the tracker's, not only the item).
    expect(next).toMatch(/Your worktree starts with this item's previous revision \(#\d+\) rebased onto/);
  }, 180_000);

  it('a template with an unknown variable stops flotilla run before any request, naming file and line', async () => {
    const repo = await fixtures.demoRepository();
    const server = await fixtures.serve(reviewerSeesSummaryScenario().scenario);
    mkdirSync(join(repo.root, '.flotilla/prompts'), { recursive: true });
    writeFileSync(
      join(repo.root, '.flotilla/prompts/implementor.md'),
      '{taskContext}\n\nImplement #{taskId}: {taskTitle}\n\n{taskDescripton}\n',
    );
    const env = { ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' };
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--until-idle'],
      env,
    });
    expect(await run.exited, run.output()).not.toBe(0);
    expect(run.output()).toContain(
      '.flotilla/prompts/implementor.md:5:1: unknown variable {taskDescripton} (did you mean {taskDescription}?)',
    );
    expect(server.requests.filter((request) => request.kind === 'step')).toEqual([]);

    const doctor = startFlotillaProcess(fixtures, { cwd: repo.root, args: ['doctor'], env });
    expect(await doctor.exited).toBe(1);
    expect(doctor.output()).toContain('✗ a prompt template is invalid');
    expect(doctor.output()).toContain('.flotilla/prompts/implementor.md:5:1');
  }, 60_000);
});
