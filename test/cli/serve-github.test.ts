/**
 * `flotilla serve` on `provider: "github"`, as a user runs it: a child process in a clone of a repository on
 * the fake GitHub: the issues it lists, a dispatch through the provider, a review refused naming the command.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import { startFlotillaProcess, waitForCondition } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TOKEN = 'e2e-serve-github-token';

describe('flotilla serve on GitHub', () => {
  it('serves the issues, dispatches one on GitHub, and refuses a review with the command that does it', async () => {
    const repo = await fixtures.demoRepository();
    const fake = await createFakeGitHub({ token: TOKEN });
    fixtures.defer(() => fake.close());
    const issue = fake.human.createIssue({ title: 'Filed on github.com', labels: ['task:implement'] });
    const configPath = join(repo.root, 'flotilla.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    config.provider = 'github';
    config.github = { owner: fake.owner, repo: fake.repo, apiUrl: fake.apiUrl, gitUrl: fake.gitUrl };
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    execFileSync('git', ['remote', 'add', 'origin', fake.gitUrl], { cwd: repo.root });

    const serve = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['serve', '--listen', '127.0.0.1:0'],
      env: { ...repo.gitEnv, FLOTILLA_GITHUB_TOKEN: TOKEN },
    });
    const line = () =>
      /flotilla dashboard on (http:\/\/127\.0\.0\.1:\d+)\/ \(github, no engine\)/.exec(serve.output());
    await waitForCondition(() => line() !== null, 60_000, 'the dashboard line', serve.output);
    const base = (line() as RegExpExecArray)[1];
    const items = (await (await fetch(`${base}/api/work-items`)).json()) as { id: string; title: string }[];
    expect(items.map((item) => [item.id, item.title])).toEqual([[String(issue), 'Filed on github.com']]);
    const dispatch = await fetch(`${base}/api/work-items/${issue}/dispatch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(dispatch.status).toBe(200);
    expect(fake.human.issueLabels(issue)).toContain('status:ready');
    const review = await fetch(`${base}/api/work-items/${issue}/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verdict: 'approve' }),
    });
    expect(review.status).toBe(409);
    expect(((await review.json()) as { error: { message: string } }).error.message).toContain(
      `flotilla review ${issue}`,
    );
    expect((await fetch(`${base}/`)).headers.get('content-type')).toContain('text/html');
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  }, 120_000);
});
