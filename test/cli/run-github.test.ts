/**
 * `flotilla run` on `provider: "github"` as a user runs it: a child process in a clone of a repository hosted
 * by the fake GitHub on 127.0.0.1 (REST + git + a CI that passes once settled), agents through the real
 * Claude Agent SDK answered by the scripted model server. Then `flotilla merge` merges the pull request.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions,
} from '../../src/demo/fake-github/create-fake-github.ts';
import type { ModelServer } from '../../src/model-server/index.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import { finishScenario, GREET, slowImplementorScenario } from '../support/run-scenarios.ts';
import {
  flotillaLogTail,
  type RunningFlotilla,
  startFlotillaProcess,
  waitForCondition,
} from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TOKEN = 'e2e-github-token';
const REVIEWER_TOKEN = 'e2e-github-reviewer-token';

interface Hosted {
  root: string;
  gitEnv: Record<string, string>;
  fake: FakeGitHub;
  /** GET on the fake's REST API, as the test's own eyes (not counted as Flotilla's). */
  api<T>(path: string): Promise<T>;
}

/**
 * The demo repository pushed to a fake GitHub (every GitHub rule it keeps is on) whose CI passes every head
 * (settled twice a second) unless `fake` says otherwise; a second account for reviews exists either way.
 */
async function hostedDemoRepository(fakeOptions: Partial<FakeGitHubOptions> = {}): Promise<Hosted> {
  const repo = await fixtures.demoRepository();
  const fake = await createFakeGitHub({
    token: TOKEN,
    ci: 'passing',
    extraUsers: [{ token: REVIEWER_TOKEN, login: 'flotilla-reviewer' }],
    ...fakeOptions,
  });
  const settle = setInterval(() => void fake.settleChecks().catch(() => {}), 500);
  fixtures.defer(async () => {
    clearInterval(settle);
    await fake.close();
  });
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } });
  git(['push', '--quiet', '--force', fake.gitUrl, 'main:main']);
  git(['remote', 'add', 'origin', fake.gitUrl]);
  const configPath = join(repo.root, 'flotilla.config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  config.provider = 'github';
  config.github = { owner: fake.owner, repo: fake.repo, apiUrl: fake.apiUrl, gitUrl: fake.gitUrl };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return {
    root: repo.root,
    gitEnv: repo.gitEnv,
    fake,
    async api<T>(path: string) {
      const response = await fetch(`${fake.apiUrl}/repos/${fake.owner}/${fake.repo}${path}`, {
        headers: { authorization: `token ${TOKEN}` },
      });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
      return (await response.json()) as T;
    },
  };
}

function startFlotilla(
  hosted: Hosted,
  server: ModelServer | null,
  args: string[],
  env: Record<string, string> = {},
): RunningFlotilla {
  return startFlotillaProcess(fixtures, {
    cwd: hosted.root,
    args,
    env: {
      ...hosted.gitEnv,
      ...env,
      FLOTILLA_GITHUB_TOKEN: TOKEN,
      ...(server !== null && { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }),
    },
  });
}

/** Every file under a directory, concatenated. */
function readTree(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

interface ApiIssue {
  number: number;
  title: string;
  state: string;
  labels: { name: string }[];
  pull_request?: unknown;
}
interface ApiPull {
  number: number;
  state: string;
  merged_at: string | null;
  head: { ref: string; sha: string };
  body: string;
}

// Seven real SDK sessions, CI and a merge through child processes: far slower under load than alone.
describe('flotilla run with provider github', () => {
  it('one token: plans issues, opens pull requests with the exact patch, red CI → rework → green, verdicts as COMMENT reviews with line comments; flotilla merge merges', async () => {
    // The first head CI sees fails: the red-CI rework round, then green.
    const hosted = await hostedDemoRepository({ failingHeads: 1 });
    const server = await fixtures.serve();
    const run = startFlotilla(hosted, server, ['run', '--headless', '--until-idle']);
    const code = await run.exited;
    expect(code, `${run.output()}\n--- log ---\n${flotillaLogTail(hosted.root, 60)}`).toBe(0);
    expect(run.output()).toContain('work item #1 review → approved');
    expect(run.output()).toContain('work item #2 review → approved');
    // The progress lines tell the GitHub budget (the fake's x-ratelimit-* headers).
    expect(run.output()).toMatch(/ GitHub rate limit: \d+\/5000 requests left, resets \d\d:\d\d:\d\d UTC\n/);

    // The token reached neither the log nor any transcript.
    expect(readTree(join(hosted.root, '.flotilla/logs'))).not.toContain(TOKEN);

    // Issues created by the planner, with the reserved labels; pull requests are not work items.
    const issues = (await hosted.api<ApiIssue[]>('/issues?state=all')).filter((issue) => !issue.pull_request);
    expect(issues.map((issue) => [issue.title, issue.labels.map((label) => label.name).sort()])).toEqual([
      ['Add farewell(name)', ['complexity:trivial', 'priority:medium', 'status:approved', 'task:implement']],
      ['Add greet(name)', ['complexity:trivial', 'priority:high', 'status:approved', 'task:implement']],
    ]);
    const [greetIssue] = issues.filter((issue) => issue.title === 'Add greet(name)');
    const pulls = await hosted.api<ApiPull[]>('/pulls?state=all');
    expect(pulls.map((pull) => pull.head.ref).sort()).toEqual(['flotilla/1', 'flotilla/2']);
    const greetPull = pulls.find((pull) => pull.head.ref === `flotilla/${greetIssue?.number}`);
    if (greetPull === undefined) throw new Error('no pull request for the greet issue');

    // The exact patch: the reworked files byte for byte, and nothing else, on top of main.
    const fakeGit = (args: string[]) =>
      execFileSync('git', ['--git-dir', hosted.fake.git.path, ...args]).toString();
    expect(fakeGit(['show', `${greetPull.head.sha}:src/greet.js`])).toBe(TRIMMING_GREET);
    expect(
      fakeGit(['diff', '--name-only', `main...${greetPull.head.sha}`])
        .trim()
        .split('\n'),
    ).toEqual(['src/greet.js', 'test/greet.test.js']);

    // The fake CI's check run on the head, green.
    const checks = await hosted.api<{ check_runs: { name: string; conclusion: string }[] }>(
      `/commits/${greetPull.head.sha}/check-runs`,
    );
    expect(checks.check_runs.map((checkRun) => [checkRun.name, checkRun.conclusion])).toEqual([
      ['test', 'success'],
    ]);

    expect(run.output()).toContain('work item #1 review → pending');
    // One identity opened the pull request and reviews it: GitHub refuses its approval, so the reviewer's
    // rounds are COMMENT reviews, the verdict first; its line comment on the diff.
    const reviews = await hosted.api<{ state: string; body: string }[]>(`/pulls/${greetPull.number}/reviews`);
    expect(reviews.map((review) => [review.state, review.body.split('\n')[0]])).toEqual([
      ['COMMENTED', '**Flotilla reviewer: changes requested**'],
      ['COMMENTED', '**Flotilla reviewer: approved**'],
    ]);
    const comments = await hosted.api<{ path: string; line: number; body: string }[]>(
      `/pulls/${greetPull.number}/comments`,
    );
    expect(comments.map((comment) => [comment.path, comment.line, comment.body])).toEqual([
      ['src/greet.js', 2, 'Trim `name` before using it.'],
    ]);

    // Each run's task context entry is mirrored on the issue (issue #28 §1), so a fresh clone with an empty
    // database builds the same history into its prompts: `flotilla prompt` shows what an agent would get.
    const issueComments = await hosted.api<{ body: string }[]>(`/issues/${greetIssue?.number}/comments`);
    const mirrored = issueComments.filter((comment) =>
      comment.body.startsWith('<!-- flotilla:task-context -->'),
    );
    expect(mirrored.length).toBeGreaterThanOrEqual(3);
    rmSync(join(hosted.root, '.flotilla/flotilla.db'), { force: true });
    const fresh = startFlotilla(hosted, null, ['prompt', 'implementor', String(greetIssue?.number)]);
    expect(await fresh.exited, fresh.output()).toBe(0);
    expect(fresh.output()).toMatch(/^## Task context\n/);
    expect(fresh.output()).toContain('implementation_summary');
    expect(fresh.output()).toContain('review_feedback');

    // `flotilla merge` merges the pull request through the API and closes the issue.
    const merge = startFlotilla(hosted, null, ['merge', String(greetIssue?.number)]);
    expect(await merge.exited, merge.output()).toBe(0);
    expect(merge.output()).toContain(`merged pull request #${greetPull.number}`);
    const merged = await hosted.api<ApiPull>(`/pulls/${greetPull.number}`);
    expect([merged.state, merged.merged_at === null]).toEqual(['closed', false]);
    expect((await hosted.api<ApiIssue>(`/issues/${greetIssue?.number}`)).state).toBe('closed');
    expect(fakeGit(['show', 'main:src/greet.js'])).toContain('name.trim()');
  }, 480_000);

  it('a reviewer token and a fast CI: the red first head is reworked before idle; real approval by the reviewer; merge', async () => {
    // CI has finished by the time the new pull request is first read: the revision arrives already red.
    const hosted = await hostedDemoRepository({ failingHeads: 1, ciSettlesAtOnce: true });
    const server = await fixtures.serve(finishScenario({ planner: true }));
    const env = { FLOTILLA_GITHUB_REVIEWER_TOKEN: REVIEWER_TOKEN };
    const run = startFlotilla(hosted, server, ['run', '--headless', '--until-idle'], env);
    const code = await run.exited;
    expect(code, `${run.output()}\n--- log ---\n${flotillaLogTail(hosted.root, 60)}`).toBe(0);
    expect(run.output()).not.toContain('waiting on a human');
    expect(run.output()).toContain('work item #1 review → approved');
    expect(server.requests.filter((request) => request.route === 'implementor').length).toBeGreaterThan(2);
    const reviews = await hosted.api<{ state: string; user: { login: string } }[]>('/pulls/2/reviews');
    expect(reviews.map((review) => [review.user.login, review.state])).toEqual([
      ['flotilla-reviewer', 'APPROVED'],
    ]);
    const merge = startFlotilla(hosted, null, ['merge', '1'], env);
    expect(await merge.exited, merge.output()).toBe(0);
    expect((await hosted.api<ApiIssue>('/issues/1')).state).toBe('closed');
  }, 480_000);

  it('after kill -9 during an implementor run, a restart finishes the item: no duplicate issue or pull request', async () => {
    const hosted = await hostedDemoRepository();
    const slow = await fixtures.serve(slowImplementorScenario());
    const first = startFlotilla(hosted, slow, ['run', '--headless']);
    await waitForCondition(
      () => first.output().includes('implementor started'),
      90_000,
      'the implementor to start',
      first.output,
    );
    first.child.kill('SIGKILL');
    await first.exited;

    const server = await fixtures.serve(finishScenario({ planner: true }));
    const second = startFlotilla(hosted, server, ['run', '--headless', '--until-idle']);
    const code = await second.exited;
    expect(code, `${second.output()}\n--- log ---\n${flotillaLogTail(hosted.root, 60)}`).toBe(0);
    expect(second.output()).toMatch(/recovered: 1 interrupted run\(s\) recorded as failed/);
    expect(second.output()).toContain('work item #1 review → approved');

    const issues = (await hosted.api<ApiIssue[]>('/issues?state=all')).filter((issue) => !issue.pull_request);
    expect(issues.map((issue) => issue.title)).toEqual(['Add greet(name)']);
    const pulls = await hosted.api<ApiPull[]>('/pulls?state=all');
    expect(pulls.map((pull) => pull.head.ref)).toEqual(['flotilla/1']);
    // No lost work: the restarted implementor's file is what the pull request carries.
    const head = pulls[0]?.head.sha ?? '';
    expect(
      execFileSync('git', ['--git-dir', hosted.fake.git.path, 'show', `${head}:src/greet.js`]).toString(),
    ).toBe(GREET);
    // The planner was not run again (its spec's SHA was recorded before the kill).
    expect(server.requests.filter((request) => request.route === 'planner')).toEqual([]);
  }, 240_000);
});

// biome-ignore lint/suspicious/noTemplateCurlyInString: the file's JavaScript template literal, verbatim.
const TRIMMING_GREET = 'export function greet(name) {\n  return `Hello, ${name.trim()}!`;\n}\n';
