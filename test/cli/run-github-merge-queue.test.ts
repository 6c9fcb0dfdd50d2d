/**
 * Issue #30 §5 on GitHub, end to end: `flotilla run --until-idle` with `provider: "github"` and
 * `merge.queue: true` against the fake GitHub (which keeps GitHub's documented rules,
 * docs/github-merge-queue.md), the real claude binary answered by the scripted model server, and a CI that
 * passes once settled. Three items: #1 changes `src/shared.js` (slot a), #2 and #3 add files of their own.
 * - Without GitHub's merge queue: a human pushes a change to slot a once #1's branch is up, so updating #1's
 *   pull request conflicts (GitHub's 422): #1 goes back to its implementor with the files and hunks, is
 *   resolved, reviewed and merged; every merge is of a head whose checks were green when it was asked for.
 * - With GitHub's merge queue required by a ruleset: every pull request is handed to it and merged by it, in
 *   merge groups whose checks passed; the items close through the pull requests' closing keywords.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions,
} from '../../src/demo/fake-github/create-fake-github.ts';
import type { Scenario } from '../../src/model-server/index.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import { APPROVE } from '../support/run-scenarios.ts';
import { flotillaLogTail, startFlotillaProcess } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TOKEN = 'e2e-github-merge-queue-token';
const SHARED = 'src/shared.js';
const FILLER = Array.from({ length: 20 }, (_, i) => `// filler ${i + 1}`);
const SHARED_BASE = `${['// slot a', ...FILLER, '// slot c'].join('\n')}\n`;
const HUMAN_LINE = 'export const zero = 0;';
const RESOLVED = `export const one = 1;\n${HUMAN_LINE}`;
/** Marks the test's own reads of the fake, left out of what Flotilla's requests are counted as. */
const OBSERVER = 'observer=1';

const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });
const read = (path: string) => tool('Read', { file_path: `{{cwd}}/${path}` });
const edit = (path: string, from: string, to: string) =>
  tool('Edit', { file_path: `{{cwd}}/${path}`, old_string: from, new_string: to });
const write = (path: string, content: string) => tool('Write', { file_path: `{{cwd}}/${path}`, content });
const completed = (summary: string) => ({ role: 'implementor', outcome: 'completed', summary });
const moduleTest = (name: string, from: string, value: number) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${name} } from '../${from}';\n\ntest('${name}', () => assert.equal(${name}, ${value}));\n`;
const item = (tempID: string, title: string, body: string) => ({
  tempID,
  title,
  body,
  labels: [],
  blockedBy: [],
});
const PLAN = {
  role: 'planner',
  create: [
    item('i1', 'Export one', `In scope: \`${SHARED}\` (slot a), \`test/one.test.js\`.`),
    item('i2', 'Add two', 'In scope: `src/two.js`, `test/two.test.js`.'),
    item('i3', 'Add three', 'In scope: `src/three.js`, `test/three.test.js`.'),
  ],
  close: [],
  update: [],
};

function queueScenario(): { scenario: Scenario; conflictPrompts: string[] } {
  const conflictPrompts: string[] = [];
  const implementor = (id: string) => ({
    systemIncludes: 'You are the implementor',
    firstUserIncludes: `## Work Item #${id} —`,
  });
  const ownFile = (id: string, name: string, value: number) => ({
    name: `implementor-${id}`,
    match: implementor(id),
    steps: [
      {
        content: [
          write(`src/${name}.js`, `export const ${name} = ${value};\n`),
          write(`test/${name}.test.js`, moduleTest(name, `src/${name}.js`, value)),
        ],
      },
      { structuredOutput: completed(`${name} added`) },
    ],
  });
  const scenario: Scenario = {
    name: 'github-merge-queue',
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
        // The rework after the conflict: the default branch holds the human's line in slot a; keep both.
        name: 'implementor-1-conflict',
        match: {
          systemIncludes: 'You are the implementor',
          firstUserIncludes: ['## Work Item #1 —', '## Merge Conflict'],
        },
        steps: [
          {
            respond: (request: { firstUser: string }) => {
              conflictPrompts.push(request.firstUser);
              return { content: [read(SHARED)] };
            },
          },
          { content: [edit(SHARED, HUMAN_LINE, RESOLVED)] },
          { structuredOutput: completed(`kept both lines of ${SHARED}`) },
        ],
      },
      {
        name: 'implementor-1',
        match: implementor('1'),
        steps: [
          { content: [read(SHARED)] },
          {
            content: [
              edit(SHARED, '// slot a', 'export const one = 1;'),
              write('test/one.test.js', moduleTest('one', SHARED, 1)),
            ],
          },
          { structuredOutput: completed('one exported') },
        ],
      },
      ownFile('2', 'two', 2),
      ownFile('3', 'three', 3),
    ],
  };
  return { scenario, conflictPrompts };
}

interface Hosted {
  root: string;
  fake: FakeGitHub;
  git(args: string[]): string;
  /** GET on the fake's REST API as the test's own eyes (marked, so not counted as Flotilla's). */
  api<T>(path: string): Promise<T>;
}

/** The demo repository with `merge.queue` on, hosted by a fake GitHub whose CI passes once settled. */
async function hostedRepository(
  fakeOptions: Partial<FakeGitHubOptions>,
  settleOptions: (fake: FakeGitHub) => { mergeGroups?: boolean } = () => ({}),
): Promise<Hosted> {
  const fake = await createFakeGitHub({ token: TOKEN, ci: 'passing', ...fakeOptions });
  const settle = setInterval(() => void fake.settleChecks(settleOptions(fake)).catch(() => {}), 300);
  fixtures.defer(async () => {
    clearInterval(settle);
    await fake.close();
  });
  const repo = await fixtures.configuredDemoRepository(
    {
      provider: 'github',
      github: { owner: fake.owner, repo: fake.repo, apiUrl: fake.apiUrl, gitUrl: fake.gitUrl },
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
    execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv }, encoding: 'utf8' });
  git(['push', '--quiet', '--force', fake.gitUrl, 'main:main']);
  git(['remote', 'add', 'origin', fake.gitUrl]);
  return {
    root: repo.root,
    fake,
    git,
    async api<T>(path: string) {
      const separator = path.includes('?') ? '&' : '?';
      const response = await fetch(
        `${fake.apiUrl}/repos/${fake.owner}/${fake.repo}${path}${separator}${OBSERVER}`,
        {
          headers: { authorization: `token ${TOKEN}` },
        },
      );
      if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
      return (await response.json()) as T;
    },
  };
}

async function runUntilIdle(hosted: Hosted, scenario: Scenario) {
  const server = await fixtures.serve(scenario);
  const run = startFlotillaProcess(fixtures, {
    cwd: hosted.root,
    args: ['run', '--headless', '--until-idle'],
    env: {
      FLOTILLA_GITHUB_TOKEN: TOKEN,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
    },
  });
  const code = await run.exited;
  expect(code, `${run.output()}\n--- log ---\n${flotillaLogTail(hosted.root, 80)}`).toBe(0);
}

interface ApiIssue {
  number: number;
  state: string;
  pull_request?: unknown;
}
interface ApiPull {
  number: number;
  state: string;
  merged_at: string | null;
  head: { ref: string; sha: string };
}

/** Flotilla's requests to the fake (the test's own reads left out). */
function flotillaRequests(fake: FakeGitHub) {
  return fake.requests.filter((request) => !request.path.includes(OBSERVER));
}

describe('the merge queue on GitHub, end to end', () => {
  it('updates each pull request through the API, merges only green heads, sends the conflict back and merges it resolved', async () => {
    const hosted = await hostedRepository({});
    const { fake } = hosted;
    // Before every merge request: the pull request's head and its checks at that moment.
    const asked: { pull: number; head: string; conclusion: string | null }[] = [];
    const watchMerges = (pull: number): void =>
      fake.interleave({ method: 'PUT', path: new RegExp(`/pulls/${pull}/merge$`) }, async () => {
        watchMerges(pull);
        const { head } = await hosted.api<ApiPull>(`/pulls/${pull}`);
        const runs = await hosted.api<{ check_runs: { conclusion: string | null }[] }>(
          `/commits/${head.sha}/check-runs`,
        );
        asked.push({ pull, head: head.sha, conclusion: runs.check_runs[0]?.conclusion ?? null });
      });
    for (let pull = 1; pull <= 12; pull++) watchMerges(pull);
    // Once #1's branch is on GitHub (before its pull request is opened), a human changes the same line of
    // main on GitHub: updating #1's pull request conflicts. The clone is not pulled: the rework's worktree
    // starts from GitHub's main all the same (Provider.workBase), or its edit of the human's line fails.
    let humanPushed = false;
    const pushWhenBranchIsUp = (): void =>
      fake.interleave({ method: 'POST', path: /\/repos\/[^/]+\/[^/]+\/pulls$/ }, async () => {
        if ((await fake.git.resolveCommit('refs/heads/flotilla/1')) === null) {
          pushWhenBranchIsUp();
          return;
        }
        await fake.human.commitFiles({ [SHARED]: SHARED_BASE.replace('// slot a', HUMAN_LINE) }, 'Zero');
        humanPushed = true;
      });
    pushWhenBranchIsUp();
    const { scenario, conflictPrompts } = queueScenario();
    await runUntilIdle(hosted, scenario);
    expect(humanPushed).toBe(true);
    expect(hosted.git(['show', `main:${SHARED}`])).toBe(SHARED_BASE); // the clone's main stayed behind

    const issues = (await hosted.api<ApiIssue[]>('/issues?state=all')).filter((issue) => !issue.pull_request);
    expect(issues.map((issue) => [issue.number, issue.state]).sort()).toEqual([
      [1, 'closed'],
      [2, 'closed'],
      [3, 'closed'],
    ]);
    const pulls = await hosted.api<ApiPull[]>('/pulls?state=all');
    expect(pulls.map((pull) => pull.merged_at !== null).sort()).toEqual([true, true, true]);

    // #1 conflicted: a comment with the file and its hunk, and a rework whose prompt showed them.
    const comments = await hosted.api<{ body: string }[]>('/issues/1/comments');
    const conflict = comments.find((comment) =>
      comment.body.includes('could not bring this item onto the default branch'),
    );
    expect(conflict?.body).toContain(`- \`${SHARED}\``);
    expect(conflict?.body).toMatch(/<<<<<<< main\n/);
    expect(conflictPrompts).toHaveLength(1);
    expect(conflictPrompts[0]).toMatch(/## Merge Conflict\n[\s\S]*<<<<<<< main\n/);
    const fakeGit = (args: string[]) =>
      execFileSync('git', ['--git-dir', fake.git.path, ...args], { encoding: 'utf8' });
    expect(fakeGit(['show', `main:${SHARED}`])).toBe(`${[RESOLVED, ...FILLER, '// slot c'].join('\n')}\n`);

    // Every merge asked for a head whose checks were green right then, and what merged is that head.
    const merges = flotillaRequests(fake).filter((request) => /\/pulls\/\d+\/merge$/.test(request.path));
    expect(merges.filter((request) => request.status === 200)).toHaveLength(3);
    expect(asked.length).toBe(merges.length);
    expect(asked.map((entry) => entry.conclusion)).toEqual(asked.map(() => 'success'));
    for (const pull of pulls) {
      const mergeCommit = fakeGit(['log', '--first-parent', '--format=%H %P', 'main'])
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .find((shas) => shas[2] === pull.head.sha);
      expect(mergeCommit, `pull request #${pull.number}'s final head is merged`).toBeDefined();
      expect(asked.some((entry) => entry.pull === pull.number && entry.head === pull.head.sha)).toBe(true);
    }
    // Each pull request was brought up to date through the API at least once (main moved under them).
    const updates = flotillaRequests(fake).filter((request) => request.path.endsWith('/update-branch'));
    expect(updates.some((request) => request.status === 422)).toBe(true);
    expect(updates.some((request) => request.status === 202)).toBe(true);
    reportCost('update-branch', fake, 3);
  }, 480_000);

  it("hands every approved pull request to GitHub's merge queue, which merges them in green merge groups", async () => {
    // The merge groups' checks are held until all three pull requests are queued: each goes in as soon as
    // it is approved and green, not after the one before it merged (a queue of one would never merge).
    let longest = 0;
    const hosted = await hostedRepository({ mergeQueue: true }, (github) => {
      longest = Math.max(longest, github.mergeQueue().length);
      return { mergeGroups: longest >= 3 };
    });
    const { fake } = hosted;
    const { scenario } = queueScenario();
    await runUntilIdle(hosted, scenario);
    expect(longest).toBe(3);

    const issues = (await hosted.api<ApiIssue[]>('/issues?state=all')).filter((issue) => !issue.pull_request);
    expect(issues.map((issue) => issue.state)).toEqual(['closed', 'closed', 'closed']);
    const pulls = await hosted.api<ApiPull[]>('/pulls?state=all');
    expect(pulls.map((pull) => pull.merged_at !== null)).toEqual([true, true, true]);
    // No direct merge: the queue merged each, as a merge group whose checks passed.
    expect(flotillaRequests(fake).filter((request) => request.path.endsWith('/merge'))).toEqual([]);
    const fakeGit = (args: string[]) =>
      execFileSync('git', ['--git-dir', fake.git.path, ...args], { encoding: 'utf8' });
    const groups = fakeGit(['log', '--first-parent', '--format=%H %s', 'main'])
      .trim()
      .split('\n')
      .filter((line) => line.includes('into the merge group'))
      .map((line) => line.split(' ')[0] ?? '');
    expect(groups).toHaveLength(3);
    for (const group of groups) {
      const runs = await hosted.api<{ check_runs: { conclusion: string | null }[] }>(
        `/commits/${group}/check-runs`,
      );
      expect(runs.check_runs.map((run) => run.conclusion)).toEqual(['success']);
    }
    reportCost("GitHub's merge queue", fake, 3);
  }, 480_000);
});

/** What the merge queue's requests cost per merged item (printed for the README's numbers). */
function reportCost(mode: string, fake: FakeGitHub, merged: number): void {
  const counted = flotillaRequests(fake).filter((request) => request.counted);
  const rest = counted.filter((request) => request.resource === 'core');
  const queueCalls = rest.filter((request) =>
    /\/update-branch$|\/merge$|\/rules\/branches\//.test(request.path.split('?')[0] ?? ''),
  );
  process.stdout.write(
    `[${mode}] REST points in the whole run: ${rest.length} (${(rest.length / merged).toFixed(1)} per merged item); ` +
      `merge-queue endpoints: ${queueCalls.length}; GraphQL: ${counted.length - rest.length}\n`,
  );
}
