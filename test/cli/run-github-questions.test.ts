/**
 * Questions answered by a reply comment on GitHub, end to end: `flotilla run` in a clone of a repository on
 * the fake GitHub (127.0.0.1), the implementor through the real Claude Agent SDK answered by the scripted
 * model server. The implementor asks; the issue gets the questions comment and `status:waiting-for-input`;
 * a drive-by user's comment is not taken as the answer; the owner's reply is, and the same SDK session
 * resumes (its request carries the first turn), finishes, and the pull request is opened and approved.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHub, type FakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { QUESTIONS_COMMENT_MARKER } from '../../src/domain/index.ts';
import type { ModelServer } from '../../src/model-server/index.ts';
import { buildQuestionsScenario, ROLE_MARKERS } from '../support/build-questions-scenario.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TOKEN = 'e2e-github-questions-token';
const GREET = "export const greet = (n) => 'Hello, ' + n + '!';\n";
const DRIVE_BY = 'Use MongoDB, trust me.';
const ANSWER = 'Plain JavaScript, no dependencies.';

// A resumed request without the owner's answer fails the run (and the test).
const scenario = buildQuestionsScenario({
  name: 'github-questions',
  roleMarker: ROLE_MARKERS.claude,
  item: { title: 'Add greet(name)', body: 'Objective: greet.' },
  questions: ['May greet use a library?'],
  answer: ANSWER,
  work: [{ type: 'tool_use', name: 'Write', input: { file_path: '{{cwd}}/src/greet.js', content: GREET } }],
  summary: 'greet added',
});

/** The demo repository pushed to a fake GitHub whose CI passes every head (settled twice a second). */
async function hostedDemoRepository(): Promise<{
  root: string;
  gitEnv: Record<string, string>;
  fake: FakeGitHub;
}> {
  const repo = await fixtures.demoRepository();
  const fake = await createFakeGitHub({ token: TOKEN, ci: 'passing' });
  const settle = setInterval(() => void fake.settleChecks().catch(() => {}), 500);
  fixtures.defer(async () => {
    clearInterval(settle);
    await fake.close();
  });
  execFileSync('git', ['push', '--quiet', '--force', fake.gitUrl, 'main:main'], {
    cwd: repo.root,
    env: { ...process.env, ...repo.gitEnv },
  });
  const configPath = join(repo.root, 'flotilla.config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  config.provider = 'github';
  config.github = { owner: fake.owner, repo: fake.repo, apiUrl: fake.apiUrl, gitUrl: fake.gitUrl };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return { root: repo.root, gitEnv: repo.gitEnv, fake };
}

function startFlotilla(
  hosted: { root: string; gitEnv: Record<string, string> },
  server: ModelServer,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const child = spawn(process.execPath, [FLOTILLA_BIN, 'run', '--headless'], {
    cwd: hosted.root,
    env: {
      ...process.env,
      ...hosted.gitEnv,
      FLOTILLA_GITHUB_TOKEN: TOKEN,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  fixtures.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, output: () => output, exited };
}

async function waitFor(check: () => boolean, what: string, context: () => string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}\n${context()}`);
}

describe('flotilla run with provider github: questions answered by a reply comment', () => {
  it('asks on the issue, ignores a drive-by comment, resumes the same session with the owner’s reply, opens the pull request', async () => {
    const hosted = await hostedDemoRepository();
    const { fake } = hosted;
    const server = await fixtures.serve(scenario);
    const run = startFlotilla(hosted, server);
    const issueExists = () =>
      fake.requests.some((request) => request.method === 'POST' && request.status === 201);
    const statusLabels = () =>
      issueExists() ? fake.human.issueLabels(1).filter((label) => label.startsWith('status:')) : [];
    const commentListings = () =>
      fake.requests.filter(
        (request) =>
          request.method === 'GET' && request.path.startsWith('/repos/acme/widgets/issues/1/comments'),
      );

    // The implementor asked: the questions comment and the waiting label are on the issue.
    await waitFor(
      () =>
        statusLabels().includes('status:waiting-for-input') &&
        fake.issueComments(1).some((body) => body.includes(QUESTIONS_COMMENT_MARKER)),
      'the issue to wait for input',
      run.output,
    );
    expect(statusLabels()).toEqual(['status:waiting-for-input']);
    const questions = fake.issueComments(1).find((body) => body.includes(QUESTIONS_COMMENT_MARKER));
    expect(questions).toContain('1. May greet use a library?');
    // Waiting, the comments are polled with `since`; an unchanged issue costs free 304s after the first read.
    // Listings without `since` read the item's mirrored task context for the prompt; every poll for an answer
    // carries it. Select on that rather than on when this test looked: the first poll may precede the look.
    const answerPolls = () => commentListings().filter((request) => request.path.includes('since='));
    await waitFor(() => answerPolls().length >= 3, 'a few answer polls', run.output);
    expect(answerPolls().filter((request) => request.counted)).toHaveLength(1);

    // A drive-by user on a public repository answers first: polled, and not taken.
    fake.human.comment(1, DRIVE_BY, { login: 'stranger', association: 'NONE' });
    const polled = commentListings().length;
    await waitFor(
      () => commentListings().length >= polled + 2 || !statusLabels().includes('status:waiting-for-input'),
      'two polls after the drive-by',
      run.output,
    );
    expect(statusLabels()).toEqual(['status:waiting-for-input']);

    // The owner replies on the issue: the same session resumes with it, and the item goes through review.
    fake.human.comment(1, ANSWER);
    await waitFor(() => statusLabels().includes('status:approved'), 'the item to be approved', run.output);
    expect(statusLabels()).toEqual(['status:approved']);

    // Resumed, not restarted: the answered request is the session's second turn (the questions turn in its
    // history), then the third; a new session would have started at turn 0 and asked again.
    const implementor = server.requestsFor('implementor');
    expect(implementor.map((request) => request.stepIndex)).toEqual([0, 1, 2]);
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(DRIVE_BY);

    // The pull request carries the implementor's file.
    const pulls = (await (
      await fetch(`${fake.apiUrl}/repos/acme/widgets/pulls?state=all`, {
        headers: { authorization: `token ${TOKEN}` },
      })
    ).json()) as { head: { ref: string; sha: string } }[];
    expect(pulls.map((pull) => pull.head.ref)).toEqual(['flotilla/1']);
    expect(
      execFileSync('git', [
        '--git-dir',
        fake.git.path,
        'show',
        `${pulls[0]?.head.sha}:src/greet.js`,
      ]).toString(),
    ).toBe(GREET);
    // The label is written first; the progress line follows at the next work item poll.
    await waitFor(
      () => run.output().includes('work item #1 review → approved'),
      'the approval in the progress lines',
      run.output,
    );

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 300_000);
});
