/**
 * `flotilla run --serve` on `provider: "github"` with webhooks, as a user runs it: a child process in a clone
 * of a repository on the fake GitHub, whose hook delivers signed events to the run's `/webhooks/github`. The
 * poll timers are set to an hour, so a change can only reach the engine through a delivery.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { WEBHOOK_EVENTS } from '../../src/providers/github/webhooks/map-webhook-delivery.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import { readSseEvents } from '../support/read-sse-events.ts';
import { slowImplementorScenario } from '../support/run-scenarios.ts';
import { startFlotillaProcess, waitForCondition } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TOKEN = 'e2e-webhooks-token';
const SECRET = 'e2e-webhooks-secret';

describe('flotilla run --serve on GitHub with webhooks', () => {
  it('a signed delivery makes the engine poll at once; unsigned ones are refused, redeliveries ignored', async () => {
    const repo = await fixtures.demoRepository();
    const fake = await createFakeGitHub({ token: TOKEN });
    fixtures.defer(() => fake.close());
    const git = (args: string[]) =>
      execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } });
    git(['push', '--quiet', '--force', fake.gitUrl, 'main:main']);
    git(['remote', 'add', 'origin', fake.gitUrl]);
    const configPath = join(repo.root, 'flotilla.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    config.provider = 'github';
    config.github = { owner: fake.owner, repo: fake.repo, apiUrl: fake.apiUrl, gitUrl: fake.gitUrl };
    config.pollIntervals = { workItems: 3600, revisions: 3600, specs: 3600 };
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    const server = await fixtures.serve(slowImplementorScenario());

    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--headless', '--serve', '127.0.0.1:0'],
      env: {
        ...repo.gitEnv,
        FLOTILLA_GITHUB_TOKEN: TOKEN,
        FLOTILLA_GITHUB_WEBHOOK_SECRET: SECRET,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
      },
    });
    const line = () =>
      /flotilla API on (http:\/\/127\.0\.0\.1:\d+)\/api.*; webhooks on (\S+)/.exec(run.output());
    await waitForCondition(() => line() !== null, 60_000, 'the API line naming the webhook URL', run.output);
    const [, base, hookUrl] = line() as RegExpExecArray;
    expect(hookUrl).toBe(`${base}/webhooks/github`);
    const stream = await readSseEvents(`${base}/api/events`);
    try {
      // The planner's item is being implemented (its agent never answers): no command asks for a poll now.
      await waitForCondition(
        () => stream.events.some((event) => event.event === 'implementorStarted'),
        90_000,
        'the implementor to start',
        run.output,
      );
      // The hook `flotilla github setup-webhook` would create; GitHub pings it first.
      fake.webhooks.addHook({ url: hookUrl as string, secret: SECRET, events: [...WEBHOOK_EVENTS] });
      const issue = fake.human.createIssue({
        title: 'Filed on github.com',
        labels: ['task:implement', 'status:blocked'],
      });
      await waitForCondition(
        () =>
          stream.events.some(
            (event) =>
              event.event === 'workItemChanged' &&
              (event.data as { workItemID: string }).workItemID === String(issue),
          ),
        30_000,
        `#${issue} on /api/events through the webhook`,
        () => `${run.output()}\n${JSON.stringify(fake.webhooks.deliveries)}`,
      );
      await fake.webhooks.settled();
      const delivered = fake.webhooks.deliveries.find((delivery) => delivery.event === 'issues');
      expect(delivered?.status).toBe(200);

      // Now the engine holds the item: a delivery naming it reads that issue alone, not the issue list.
      const before = fake.requests.length;
      fake.human.closeIssue(issue);
      await waitForCondition(
        () =>
          stream.events.some(
            (event) =>
              event.event === 'workItemChanged' &&
              (event.data as { workItemID: string; newStatus: string | null }).workItemID === String(issue) &&
              (event.data as { newStatus: string | null }).newStatus === 'closed',
          ),
        30_000,
        `#${issue} closed on /api/events through the webhook`,
        run.output,
      );
      const issues = `/repos/${fake.owner}/${fake.repo}/issues`;
      const read = fake.requests
        .slice(before)
        .map((request) => `${request.method} ${request.path.split('?')[0]}`);
      expect(read).toContain(`GET ${issues}/${issue}`);
      expect(read).not.toContain(`GET ${issues}`);

      // A redelivery is answered and ignored; an unsigned POST is refused.
      expect(await fake.webhooks.redeliver(delivered?.id as string)).toBe(200);
      const unsigned = await fetch(hookUrl as string, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          'x-github-delivery': 'forged-1',
        },
        body: JSON.stringify({
          repository: { full_name: `${fake.owner}/${fake.repo}` },
          issue: { number: issue },
        }),
      });
      expect(unsigned.status).toBe(401);
    } finally {
      stream.close();
    }
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const log = readFileSync(join(repo.root, '.flotilla/logs/flotilla.log'), 'utf8');
    expect(log).toContain('its X-Hub-Signature-256 is missing');
    expect(log).not.toContain(SECRET);
  }, 180_000);
});
