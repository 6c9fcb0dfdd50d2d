/**
 * The plan gate on GitHub, end to end (issue #29 §2): `flotilla run` with `approval.plans: required` in a
 * clone of a repository on the fake GitHub (127.0.0.1), the planner through the real Claude Agent SDK
 * answered by the scripted model server. The plan becomes a `task:proposal` issue whose comment lists it
 * (and carries it in a hidden block); a drive-by user's `/accept` is not taken (GitHub's
 * `author_association` rules, as for answers); the owner's `/accept` applies it: the work item's issue is
 * created and the proposal's issue closed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHub, type FakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { PROPOSAL_COMMENT_MARKER, parseProposalData } from '../../src/domain/index.ts';
import type { ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TOKEN = 'e2e-github-proposals-token';

const scenario: ScenarioSpec = {
  name: 'github-proposals',
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
                tempID: 'greet',
                title: 'Add greet(name)',
                body: 'Objective: greet.',
                labels: [],
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
      name: 'implementor',
      match: { systemIncludes: 'You are the implementor' },
      steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'not in this test' } }],
    },
  ],
};

/** The demo repository with `approval.plans: required`, pushed to a fake GitHub. */
async function hostedDemoRepository(): Promise<{
  root: string;
  gitEnv: Record<string, string>;
  fake: FakeGitHub;
}> {
  const repo = await fixtures.demoRepository();
  const fake = await createFakeGitHub({ token: TOKEN, ci: 'passing' });
  fixtures.defer(() => fake.close());
  const configPath = join(repo.root, 'flotilla.config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  config.approval = { plans: 'required' };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } });
  git(['commit', '--quiet', '-am', 'Plans need approval']);
  git(['push', '--quiet', '--force', fake.gitUrl, 'main:main']);
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

describe('flotilla run with provider github: a plan that needs approval', () => {
  it('posts the proposal on an issue, ignores a drive-by /accept, applies the owner’s /accept', async () => {
    const hosted = await hostedDemoRepository();
    const { fake } = hosted;
    const server = await fixtures.serve(scenario);
    const run = startFlotilla(hosted, server);
    const created = () =>
      fake.requests.filter(
        (request) =>
          request.method === 'POST' &&
          request.status === 201 &&
          request.path === '/repos/acme/widgets/issues',
      );
    const commentListings = () =>
      fake.requests.filter(
        (request) =>
          request.method === 'GET' && request.path.startsWith('/repos/acme/widgets/issues/1/comments'),
      );

    await waitFor(
      () =>
        created().length >= 1 && fake.issueComments(1).some((body) => body.includes(PROPOSAL_COMMENT_MARKER)),
      'the proposal comment',
      run.output,
    );
    expect(fake.human.issueLabels(1).sort()).toEqual(['status:waiting-for-input', 'task:proposal']);
    const posted = fake.issueComments(1).find((body) => body.includes(PROPOSAL_COMMENT_MARKER)) ?? '';
    expect(posted).toContain('1. **Add greet(name)** (`greet`)');
    expect(parseProposalData(posted)?.result.create.map((create) => create.title)).toEqual([
      'Add greet(name)',
    ]);

    // A drive-by user on a public repository accepts: polled, and not taken.
    fake.human.comment(1, '/accept', { login: 'stranger', association: 'NONE' });
    const polled = commentListings().length;
    await waitFor(() => commentListings().length >= polled + 2, 'two polls after the drive-by', run.output);
    expect(created()).toHaveLength(1);
    expect(fake.human.issueLabels(1)).toContain('status:waiting-for-input');

    // The owner accepts: the plan is applied, the proposal's issue closed.
    fake.human.comment(1, '/accept');
    await waitFor(() => created().length >= 2, 'the planned issue', run.output);
    await waitFor(
      () =>
        fake
          .issueComments(1)
          .some((body) => body.includes('The plan was accepted and applied: it created #2')),
      'the proposal to close',
      run.output,
    );
    const listIssues = async () =>
      (await (
        await fetch(`${fake.apiUrl}/repos/acme/widgets/issues?state=all`, {
          headers: { authorization: `token ${TOKEN}` },
        })
      ).json()) as { number: number; title: string; state: string }[];
    // The closing comment comes just before the close.
    let issues = await listIssues();
    for (
      let tries = 0;
      tries < 200 && issues.find((issue) => issue.number === 1)?.state !== 'closed';
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      issues = await listIssues();
    }
    const byNumber = new Map(issues.map((issue) => [issue.number, issue]));
    expect(byNumber.get(1)?.state).toBe('closed');
    expect(byNumber.get(2)?.title).toBe('Add greet(name)');
    expect(server.requestsFor('planner')).toHaveLength(1);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 300_000);
});
