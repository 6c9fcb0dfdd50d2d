/**
 * Issue #30 §2 end to end, on the real claude binary against the scripted model server and real git: item B
 * is blocked by A and its test imports A's module. B starts once A is approved, in a worktree on A's approved
 * revision, told so in its prompt; its validation (`npm test`) passes the first time. Its revision holds only
 * its own files, on top of A's; `flotilla merge` refuses B before A, then merges A and B in order.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/model-server/index.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { APPROVE } from '../support/run-scenarios.ts';
import { startFlotillaProcess } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const write = (path: string, content: string) => ({
  type: 'tool_use' as const,
  name: 'Write',
  input: { file_path: `{{cwd}}/${path}`, content },
});

const PLAN = {
  role: 'planner',
  create: [
    { tempID: 'a', title: 'Add wordCount', body: 'Export wordCount(text).', labels: [], blockedBy: [] },
    { tempID: 'b', title: 'Add longestWord', body: 'Uses wordCount.', labels: [], blockedBy: ['a'] },
  ],
  close: [],
  update: [],
};

/** A writes src/wordcount.js; B's module and test import it. B's prompts are kept. */
function stackedScenario(): { scenario: Scenario; promptsOfB: string[] } {
  const promptsOfB: string[] = [];
  const completed = (summary: string) => ({ role: 'implementor', outcome: 'completed', summary });
  const scenario: Scenario = {
    name: 'stacked-items',
    routes: [
      {
        name: 'planner',
        match: { systemIncludes: 'You are the planner' },
        steps: [{ structuredOutput: PLAN }],
      },
      {
        name: 'reviewer',
        match: { systemIncludes: 'You are the reviewer' },
        steps: [{ structuredOutput: APPROVE }],
      },
      {
        name: 'implementor-a',
        match: { systemIncludes: 'You are the implementor', firstUserIncludes: '## Work Item #1 —' },
        steps: [
          {
            content: [
              write(
                'src/wordcount.js',
                'export const wordCount = (text) => text.split(/\\s+/).filter(Boolean).length;\n',
              ),
            ],
          },
          { structuredOutput: completed('wordCount added') },
        ],
      },
      {
        name: 'implementor-b',
        match: { systemIncludes: 'You are the implementor', firstUserIncludes: '## Work Item #2 —' },
        steps: [
          {
            respond: (request) => {
              promptsOfB.push(request.firstUser);
              return {
                content: [
                  write(
                    'src/longest.js',
                    "import { wordCount } from './wordcount.js';\nexport const longest = (t) => (wordCount(t) === 0 ? '' : t.split(/\\s+/).sort((x, y) => y.length - x.length)[0]);\n",
                  ),
                  write(
                    'test/longest.test.js',
                    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { longest } from '../src/longest.js';\nimport { wordCount } from '../src/wordcount.js';\n\ntest('longest word', () => {\n  assert.equal(longest('a bbb cc'), 'bbb');\n  assert.equal(wordCount('a bbb cc'), 3);\n});\n",
                  ),
                ],
              };
            },
          },
          { structuredOutput: completed('longest added on top of wordCount') },
        ],
      },
    ],
  };
  return { scenario, promptsOfB };
}

describe('dependent items build on what they depend on', () => {
  it("B is implemented on A's approved revision, passes at once, and merges after A", async () => {
    const repo = await fixtures.configuredDemoRepository({ validation: { commands: ['npm test'] } });
    const { scenario, promptsOfB } = stackedScenario();
    const server = await fixtures.serve(scenario);
    const env = { ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' };
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--until-idle'],
      env,
    });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('work item #2 review → approved');

    // B's one session was told what it builds on; its validation passed the first time.
    expect(promptsOfB).toHaveLength(1);
    expect(promptsOfB[0]).toMatch(/## Builds On\n[\s\S]*#1 "Add wordCount": approved, not merged yet/);
    const sessionsDir = join(repo.root, '.flotilla/logs/sessions');
    const logsOfB = (await readdir(sessionsDir)).filter(
      (name) => /implementor/.test(name) && name.includes('-2-'),
    );
    const transcripts = await Promise.all(logsOfB.map((name) => readFile(join(sessionsDir, name), 'utf8')));
    const ofB = transcripts.filter((text) => text.includes('longest'));
    expect(ofB).toHaveLength(1);
    expect(ofB[0]).toContain('FLOTILLA validation passed: npm test');
    expect(ofB[0]).not.toContain('validation errors');

    const git = (args: string[]) =>
      execFileSync('git', args, {
        cwd: repo.root,
        env: { ...process.env, ...repo.gitEnv },
        encoding: 'utf8',
      });
    // B's revision sits on A's head and holds only its own files.
    expect(git(['rev-parse', 'flotilla/2^1'])).toBe(git(['rev-parse', 'flotilla/1']));
    expect(git(['diff', '--name-only', 'flotilla/2^1', 'flotilla/2']).trim().split('\n')).toEqual([
      'src/longest.js',
      'test/longest.test.js',
    ]);

    const flotilla = (id: string) =>
      spawnSync(process.execPath, [FLOTILLA_BIN, 'merge', id], {
        cwd: repo.root,
        env: { ...process.env, ...repo.gitEnv },
        encoding: 'utf8',
      });
    const mainBefore = git(['rev-parse', 'main']);
    const tooEarly = flotilla('2');
    expect(tooEarly.status, tooEarly.stdout).toBe(1);
    expect(tooEarly.stderr).toMatch(/builds on .*merge the revisions it builds on first/);
    expect(git(['rev-parse', 'main'])).toBe(mainBefore);
    for (const id of ['1', '2']) {
      const merged = flotilla(id);
      expect(merged.status, merged.stderr).toBe(0);
      expect(merged.stdout).toContain(`closed #${id}`);
    }
    expect(git(['ls-files', 'src', 'test']).trim().split('\n')).toEqual(
      expect.arrayContaining(['src/wordcount.js', 'src/longest.js', 'test/longest.test.js']),
    );
    const tests = spawnSync('npm', ['test'], { cwd: repo.root, encoding: 'utf8' });
    expect(tests.status, tests.stdout + tests.stderr).toBe(0);
  }, 180_000);
});
