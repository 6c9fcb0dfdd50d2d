/**
 * Issue #28 §2 (docs/repository-memory.md: of two sequential runs, the second sees what the first stored),
 * end to end on the real claude binary against the scripted model server: run 1 of an item (its
 * implementor) stores a memory, records a decision, logs a question and updates its summary through the
 * in-process MCP tools; run 2 (the reviewer) is given the memory in its
 * prompt's "Memories" section. `memory list|export|forget`, `work show`, `questions` and `stats` show what
 * was recorded; the next prompt no longer has a forgotten memory.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/model-server/index.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { APPROVE, GREET_COMPLETED, oneItemScenario, WRITE_GREET } from '../support/run-scenarios.ts';
import { startFlotillaProcess } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const MEMORY = 'The greeting module is plain ESM: import it with a .js extension.';
const SECRET = 'memory-test-secret-value-0815-abcdef';
/** What the agent stores: the memory, and a secret of the environment it must never keep. */
const STORED = `${MEMORY} The token is ${SECRET}.`;

const toolUse = (tool: string, input: Record<string, string>) => ({
  type: 'tool_use' as const,
  name: `mcp__flotilla__${tool}`,
  input,
});

function memoryScenario(): { scenario: Scenario; reviewerPrompts: string[] } {
  const reviewerPrompts: string[] = [];
  const scenario = oneItemScenario('repository-memory', [
    {
      content: [
        toolUse('update_summary', { text: 'Writing greet' }),
        toolUse('store_memory', { topic: 'module format', text: STORED }),
        toolUse('record_decision', { decision: 'greet returns a string', why: `simplest; token ${SECRET}` }),
        toolUse('log_question', { text: 'Should greet trim the name?' }),
      ],
    },
    { content: [WRITE_GREET] },
    { structuredOutput: GREET_COMPLETED },
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

describe('repository memory in flotilla run (claude)', () => {
  it("run 2's prompt holds the memory run 1 stored; decisions, questions and memories are listed", async () => {
    const repo = await fixtures.demoRepository();
    const { scenario, reviewerPrompts } = memoryScenario();
    const server = await fixtures.serve(scenario);
    const env = {
      ...repo.gitEnv,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      MEMORY_TEST_TOKEN: SECRET,
    };
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--until-idle'],
      env,
    });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('work item #1 review → approved');

    // The planner ran before anything was stored: its prompt says so.
    const plannerPrompt = server.requests.find((request) => request.route === 'planner');
    expect(JSON.stringify(plannerPrompt ?? {})).toContain('No memories yet');
    expect(reviewerPrompts).toHaveLength(1);
    const prompt = reviewerPrompts[0] as string;
    expect(prompt).toContain('## Memories');
    expect(prompt).toMatch(/- \*\*module format\*\* \(implementor on #1, \d{4}-\d\d-\d\d\): /);
    expect(prompt).toContain(MEMORY);

    const flotilla = (args: string[]) =>
      execFileSync(process.execPath, [FLOTILLA_BIN, ...args], {
        cwd: repo.root,
        env: { ...process.env, ...repo.gitEnv },
      }).toString();
    const memories = JSON.parse(flotilla(['memory', 'list', '--json'])) as { id: number; topic: string }[];
    expect(memories.map((memory) => memory.topic)).toEqual(['module format']);
    // The secret in the memory was redacted before it was stored: neither the prompt nor the store has it.
    expect(prompt).toContain(`${MEMORY} The token is [REDACTED:MEMORY_TEST_TOKEN].`);
    expect(prompt).not.toContain(SECRET);
    expect(flotilla(['memory', 'show', String(memories[0]?.id)])).toContain(
      'The token is [REDACTED:MEMORY_TEST_TOKEN].',
    );
    const shown = flotilla(['work', 'show', '1']);
    expect(shown).toContain('Decisions (1, oldest first):');
    expect(shown).toMatch(/\[implementor · claude\] greet returns a string/);
    // The secret in the decision's reason was redacted before it was stored.
    expect(shown).toContain('why: simplest; token [REDACTED:MEMORY_TEST_TOKEN]');
    expect(shown).not.toContain(SECRET);
    expect(shown).toContain('Should greet trim the name?');
    expect(flotilla(['questions'])).toMatch(
      /#1 \[implementor · claude\] .*\n {2}Should greet trim the name\?/,
    );
    expect(flotilla(['stats', '--since', 'all'])).toContain(
      'Decisions agents recorded: 1   questions they logged: 1',
    );

    // Export, forget, import: the team's Markdown copy brings it back.
    const exported = join(repo.root, 'memories.md');
    flotilla(['memory', 'export', '--output', exported]);
    expect(readFileSync(exported, 'utf8')).toContain(`## module format\n`);
    flotilla(['memory', 'forget', String(memories[0]?.id)]);
    expect(flotilla(['prompt', 'implementor', '1'])).toContain('No memories yet.');
    writeFileSync(exported, `${readFileSync(exported, 'utf8')}\n## tests\n\nRun npm test.\n`);
    expect(flotilla(['memory', 'import', exported])).toContain('2 memories imported');
    const next = flotilla(['prompt', 'implementor', '1']);
    expect(next).toContain(MEMORY);
    expect(next).toContain('- **tests** (human, ');
  }, 180_000);
});
