/**
 * Issue #30 §5 end to end, on the real claude binary against the scripted model server, real git and the
 * local provider (checks: `npm test`), with `merge.queue: true` and 3 concurrent agents. Six items: #1, #2
 * and #3 change `src/shared.js` (#1 and #2 the same line), #4 adds wordCount, #5 (blocked by #4) imports it,
 * #6 stands alone. The items sharing a file never run at once; every item ends merged through the queue,
 * each revision fast-forwarded onto the default branch at a head whose checks passed there; the one of #1/#2
 * that reaches the queue second conflicts, goes back to its implementor with the conflict in its prompt,
 * and is resolved; #5 is implemented on #4's approved revision and merges after it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/cli/commands/runs-command-summary.ts';
import type { Scenario } from '../../src/model-server/index.ts';
import { createSqliteTracker, openDatabase } from '../../src/storage/index.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { APPROVE } from '../support/run-scenarios.ts';
import { startFlotillaProcess } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const SHARED = 'src/shared.js';
const FILLER = Array.from({ length: 20 }, (_, i) => `// filler ${i + 1}`);
const SHARED_BASE = `${['// slot a', ...FILLER, '// slot c'].join('\n')}\n`;
const RESOLVED = 'export const one = 1;\nexport const two = 2;';

const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });
const read = (path: string) => tool('Read', { file_path: `{{cwd}}/${path}` });
const edit = (path: string, from: string, to: string) =>
  tool('Edit', { file_path: `{{cwd}}/${path}`, old_string: from, new_string: to });
const write = (path: string, content: string) => tool('Write', { file_path: `{{cwd}}/${path}`, content });
const testOf = (name: string, value: number) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${name} } from '../src/shared.js';\n\ntest('${name}', () => assert.equal(${name}, ${value}));\n`;
/** #4's test: slow (8 s) while #5's module is not there, so #4 waits in the queue while #5 starts. */
const WORDCOUNT_TEST = `import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { wordCount } from '../src/wordcount.js';

test('wordCount', async () => {
  if (!existsSync(new URL('../src/longest.js', import.meta.url))) await new Promise((r) => setTimeout(r, 8000));
  assert.equal(wordCount('a bb  c'), 3);
});
`;
const completed = (summary: string) => ({ role: 'implementor', outcome: 'completed', summary });

const item = (tempID: string, title: string, body: string, blockedBy: string[] = []) => ({
  tempID,
  title,
  body,
  labels: [],
  blockedBy,
});
const PLAN = {
  role: 'planner',
  create: [
    item('i1', 'Export one', `In scope: \`${SHARED}\` (slot a), \`test/one.test.js\`.`),
    item('i2', 'Export two', `In scope: \`${SHARED}\` (slot a), \`test/two.test.js\`.`),
    item('i3', 'Export three', `In scope: \`${SHARED}\` (slot c), \`test/three.test.js\`.`),
    item('i4', 'Add wordCount', 'In scope: `src/wordcount.js`.'),
    item('i5', 'Add longestWord', 'In scope: `src/longest.js`, `test/longest.test.js`.', ['i4']),
    item('i6', 'Add six', 'In scope: `src/six.js`, `test/six.test.js`.'),
  ],
  close: [],
  update: [],
};

interface Recorded {
  conflictPrompts: { item: string; prompt: string }[];
  promptsOf5: string[];
}

function queueScenario(): { scenario: Scenario; recorded: Recorded } {
  const recorded: Recorded = { conflictPrompts: [], promptsOf5: [] };
  const implementor = (id: string) => ({
    systemIncludes: 'You are the implementor',
    firstUserIncludes: `## Work Item #${id} —`,
  });
  /** The rework after a conflict: the default branch holds the other item's line; keep both. */
  const conflictRoute = (id: '1' | '2', theirs: string) => ({
    name: `implementor-${id}-conflict`,
    match: {
      systemIncludes: 'You are the implementor',
      firstUserIncludes: [`## Work Item #${id} —`, '## Merge Conflict'],
    },
    steps: [
      {
        respond: (request: { firstUser: string }) => {
          recorded.conflictPrompts.push({ item: id, prompt: request.firstUser });
          return { content: [read(SHARED)] };
        },
      },
      { content: [edit(SHARED, theirs, RESOLVED)] },
      { structuredOutput: completed(`kept both lines of ${SHARED}`) },
    ],
  });
  const slotEdit = (id: string, slot: string, name: string, value: number) => ({
    name: `implementor-${id}`,
    match: implementor(id),
    steps: [
      { content: [read(SHARED)] },
      {
        content: [
          edit(SHARED, `// slot ${slot}`, `export const ${name} = ${value};`),
          write(`test/${name}.test.js`, testOf(name, value)),
        ],
      },
      { structuredOutput: completed(`${name} exported`) },
    ],
  });
  const scenario: Scenario = {
    name: 'merge-queue',
    routes: [
      {
        name: 'planner',
        match: { systemIncludes: 'You are the planner' },
        steps: [{ structuredOutput: PLAN }],
      },
      {
        // #1's review takes a while, so #2 is made (from the default branch without #1) before #1 merges.
        name: 'reviewer-1',
        match: { systemIncludes: 'You are the reviewer', firstUserIncludes: '## Work Item #1 —' },
        steps: [{ delayMs: 8000, structuredOutput: APPROVE }],
      },
      {
        // #4 is approved once the default branch has moved (#6 merged), so the queue rebases it and its
        // checks run again — slowly while #5 is not there yet: #5 starts on #4's approved revision, unmerged.
        name: 'reviewer-4',
        match: { systemIncludes: 'You are the reviewer', firstUserIncludes: '## Work Item #4 —' },
        steps: [{ delayMs: 20_000, structuredOutput: APPROVE }],
      },
      {
        name: 'reviewer',
        match: { systemIncludes: 'You are the reviewer' },
        steps: [{ structuredOutput: APPROVE }],
      },
      conflictRoute('1', 'export const two = 2;'),
      conflictRoute('2', 'export const one = 1;'),
      slotEdit('1', 'a', 'one', 1),
      slotEdit('2', 'a', 'two', 2),
      slotEdit('3', 'c', 'three', 3),
      {
        name: 'implementor-4',
        match: implementor('4'),
        steps: [
          {
            content: [
              write(
                'src/wordcount.js',
                'export const wordCount = (text) => text.split(/\\s+/).filter(Boolean).length;\n',
              ),
              write('test/wordcount.test.js', WORDCOUNT_TEST),
            ],
          },
          { structuredOutput: completed('wordCount added') },
        ],
      },
      {
        name: 'implementor-5',
        match: implementor('5'),
        steps: [
          {
            respond: (request: { firstUser: string }) => {
              recorded.promptsOf5.push(request.firstUser);
              return {
                content: [
                  write(
                    'src/longest.js',
                    "import { wordCount } from './wordcount.js';\nexport const longest = (t) => (wordCount(t) === 0 ? '' : t.split(/\\s+/).sort((x, y) => y.length - x.length)[0]);\n",
                  ),
                  write(
                    'test/longest.test.js',
                    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { longest } from '../src/longest.js';\n\ntest('longest word', () => assert.equal(longest('a bbb cc'), 'bbb'));\n",
                  ),
                ],
              };
            },
          },
          { structuredOutput: completed('longest added on top of wordCount') },
        ],
      },
      {
        name: 'implementor-6',
        match: implementor('6'),
        steps: [
          {
            content: [
              write('src/six.js', 'export const six = 6;\n'),
              write(
                'test/six.test.js',
                "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { six } from '../src/six.js';\n\ntest('six', () => assert.equal(six, 6));\n",
              ),
            ],
          },
          { structuredOutput: completed('six added') },
        ],
      },
    ],
  };
  return { scenario, recorded };
}

describe('the merge queue, end to end', () => {
  it('merges six items one at a time, sends the conflict back, and stacks the dependent item', async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        merge: { queue: true },
        scheduler: { maxConcurrentAgents: 3 },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
      },
      {
        prepare: async (root) => {
          await mkdir(join(root, 'src'), { recursive: true });
          await writeFile(join(root, SHARED), SHARED_BASE);
        },
      },
    );
    const git = (args: string[]) =>
      execFileSync('git', args, {
        cwd: repo.root,
        env: { ...process.env, ...repo.gitEnv },
        encoding: 'utf8',
      });
    const base = git(['rev-parse', 'main']).trim();
    const { scenario, recorded } = queueScenario();
    const server = await fixtures.serve(scenario);
    const env = { ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' };
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--until-idle'],
      env,
    });
    expect(await run.exited, run.output()).toBe(0);

    const db = openDatabase(join(repo.root, '.flotilla/flotilla.db'));
    fixtures.defer(async () => {
      db.close();
    });
    const tracker = createSqliteTracker(db, { now: () => Date.now() });
    const ids = ['1', '2', '3', '4', '5', '6'];
    expect(ids.map((id) => tracker.workItems.getWorkItem(id)?.status)).toEqual(ids.map(() => 'closed'));

    // Every merge was a fast-forward to a revision head whose checks passed there: main's history since the
    // start is exactly the merged heads, each on the one before.
    const history = git(['rev-list', '--first-parent', '--reverse', `${base}..main`])
      .trim()
      .split('\n');
    const merged = ids.map((id) => {
      const revisions = tracker.revisions
        .listWorkItemRevisions(id)
        .filter((revision) => tracker.revisions.getRevisionState(revision.id) === 'merged');
      expect(revisions, `#${id}`).toHaveLength(1);
      return { id, revision: revisions[0]! };
    });
    expect([...history].sort()).toEqual(merged.map(({ revision }) => revision.headSHA).sort());
    for (const [index, sha] of history.entries()) {
      expect(git(['rev-list', '--parents', '-n', '1', sha]).trim().split(' ')).toEqual([
        sha,
        index === 0 ? base : history[index - 1],
      ]);
    }
    for (const { id, revision } of merged) {
      expect(tracker.revisions.getPipeline(revision.id, revision.headSHA)?.status, `#${id}`).toBe('success');
    }
    // #4 before #5.
    const position = (id: string) =>
      history.indexOf(merged.find((entry) => entry.id === id)!.revision.headSHA);
    expect(position('4')).toBeLessThan(position('5'));

    // Exactly one of #1 and #2 conflicted: a comment with the hunk, a rework whose prompt showed it.
    const conflictComments = ['1', '2'].flatMap((id) =>
      tracker.workItems
        .getWorkItemComments(id)
        .filter((comment) => comment.body.includes('could not bring this item onto the default branch'))
        .map((comment) => ({ id, body: comment.body })),
    );
    expect(conflictComments).toHaveLength(1);
    expect(conflictComments[0]?.body).toContain(`- \`${SHARED}\``);
    expect(conflictComments[0]?.body).toMatch(/<<<<<<< main\n/);
    expect(recorded.conflictPrompts.map((entry) => entry.item)).toEqual([conflictComments[0]?.id]);
    expect(recorded.conflictPrompts[0]?.prompt).toMatch(/## Merge Conflict\n[\s\S]*<<<<<<< main\n/);
    expect(git(['show', `main:${SHARED}`])).toBe(
      `${[RESOLVED, ...FILLER, 'export const three = 3;'].join('\n')}\n`,
    );

    // The items sharing src/shared.js never ran their implementors at once.
    const runs = JSON.parse(
      execFileSync(process.execPath, [FLOTILLA_BIN, 'runs', '--json', '--limit', '100'], {
        cwd: repo.root,
        encoding: 'utf8',
      }),
    ) as RunSummary[];
    const sharing = runs.filter(
      (entry) => entry.role === 'implementor' && ['1', '2', '3'].includes(entry.workItemID ?? ''),
    );
    expect(sharing.length).toBeGreaterThanOrEqual(4);
    for (const a of sharing) {
      for (const b of sharing) {
        if (a === b) continue;
        const apart = (a.endedAt ?? '') <= b.requestedAt || (b.endedAt ?? '') <= a.requestedAt;
        expect(apart, `${a.workItemID} and ${b.workItemID} overlapped`).toBe(true);
      }
    }

    // #5 was implemented on #4's approved revision.
    expect(recorded.promptsOf5).toHaveLength(1);
    expect(recorded.promptsOf5[0]).toMatch(
      /## Builds On\n[\s\S]*#4 "Add wordCount": approved, not merged yet/,
    );
    const firstOf5 = tracker.revisions.listRevisionPushes(
      merged.find((entry) => entry.id === '5')!.revision.id,
    )[0]!;
    const pushesOf4 = tracker.revisions
      .listRevisionPushes(merged.find((entry) => entry.id === '4')!.revision.id)
      .map((push) => push.headSHA);
    expect(pushesOf4).toContain(git(['rev-parse', `${firstOf5.headSHA}^1`]).trim());

    const tests = spawnSync('npm', ['test'], { cwd: repo.root, encoding: 'utf8' });
    expect(tests.status, tests.stdout + tests.stderr).toBe(0);
  }, 300_000);
});
