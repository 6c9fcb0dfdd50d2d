import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { createFakeGitHub, type FakeGitHub } from '../../demo/fake-github/create-fake-github.ts';
import { buildGitHubLabelSet } from '../../providers/github/setup/build-github-label-set.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

const TOKEN = 'cli-test-token';
let repo: TempGitRepo;
let fake: FakeGitHub;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const ok = async (...args: string[]) => {
  const result = await flotilla(...args);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return result.stdout;
};
const json = async (...args: string[]) => JSON.parse(await ok(...args));

beforeEach(async () => {
  fake = await createFakeGitHub({
    token: TOKEN,
    extraUsers: [{ token: 'cli-reviewer-token', login: 'flotilla-reviewer' }],
  });
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n', '.gitignore': '.flotilla/\n' });
  process.env.FLOTILLA_GITHUB_TOKEN = TOKEN;
});
afterEach(async () => {
  delete process.env.FLOTILLA_GITHUB_TOKEN;
  delete process.env.FLOTILLA_GITHUB_REVIEWER_TOKEN;
  delete process.env.FLOTILLA_GITHUB_WEBHOOK_SECRET;
  await repo.cleanup();
  await fake.close();
});

async function initGitHub(): Promise<void> {
  await ok(
    'init',
    '--provider',
    'github',
    '--owner',
    fake.owner,
    '--repo',
    fake.repo,
    '--api-url',
    fake.apiUrl,
  );
}

describe('flotilla init --provider github, github setup-labels and doctor', { timeout: 60_000 }, () => {
  it('init writes the github provider; the repository comes from the flags or the origin remote', async () => {
    const out = await ok('init', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets');
    expect(out).toContain('export FLOTILLA_GITHUB_TOKEN');
    const config = JSON.parse(readFileSync(join(repo.root, 'flotilla.config.json'), 'utf8'));
    expect(config).toMatchObject({ provider: 'github', github: { owner: 'acme', repo: 'widgets' } });
    expect(JSON.stringify(config)).not.toContain(TOKEN);

    await repo.git(['remote', 'add', 'origin', 'git@github.com:octo-org/gadgets.git']);
    await ok('init', '--provider', 'github', '--force');
    expect(JSON.parse(readFileSync(join(repo.root, 'flotilla.config.json'), 'utf8')).github).toEqual({
      owner: 'octo-org',
      repo: 'gadgets',
    });
    await repo.git(['remote', 'remove', 'origin']);
    const missing = await flotilla('init', '--provider', 'github', '--force');
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'flotilla init: --provider github needs the repository: give --owner OWNER --repo REPO (no GitHub origin remote to read them from)\n',
    ]);
  });

  it('setup-labels creates the whole set once, then writes nothing; a colour edited by hand is put back', async () => {
    await initGitHub();
    const wanted = buildGitHubLabelSet();
    // Every status of the domain's list, and each reserved prefix.
    expect(wanted.map((label) => label.name)).toEqual(
      expect.arrayContaining([
        'status:pending',
        'status:needs-refinement',
        'status:closed',
        'task:refinement',
        'task:investigate',
        'task:refine',
      ]),
    );
    const first = await json('github', 'setup-labels', '--json');
    expect(first).toEqual({ created: wanted.map((label) => label.name), updated: [], unchanged: [] });
    const writes = () => fake.requests.filter((request) => request.method !== 'GET').length;
    const before = writes();
    expect((await json('github', 'setup-labels', '--json')).created).toEqual([]);
    expect(writes()).toBe(before);

    const edited = await fetch(`${fake.apiUrl}/repos/${fake.owner}/${fake.repo}/labels/status%3Aready`, {
      method: 'PATCH',
      headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ color: '000000' }),
    });
    expect(edited.status).toBe(200);
    expect(await ok('github', 'setup-labels')).toBe(
      `labels: 0 created, 1 updated, ${wanted.length - 1} already right\n  updated status:ready\n`,
    );
  });

  it('setup-webhook creates the hook with the secret and every event, then updates it; doctor checks it', async () => {
    await initGitHub();
    // Loopback, nobody listening: the fake's ping must not leave the machine.
    const url = 'http://127.0.0.1:9/webhooks/github';
    const noSecret = await flotilla('github', 'setup-webhook', '--url', url);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('FLOTILLA_GITHUB_WEBHOOK_SECRET is not set');
    expect(fake.webhooks.hooks).toEqual([]);
    process.env.FLOTILLA_GITHUB_WEBHOOK_SECRET = 'hook-secret-1';
    const webhookCheck = async () => {
      const parsed = JSON.parse((await flotilla('doctor', '--json')).stdout) as {
        checks: { name: string; status: string; message: string }[];
      };
      return parsed.checks.find((check) => check.name === 'github-webhook');
    };
    expect(await webhookCheck()).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('no repository hook'),
    });
    expect((await flotilla('github', 'setup-webhook', '--url', 'ftp://x')).code).toBe(2);

    const created = await json('github', 'setup-webhook', '--url', url, '--json');
    expect(created).toMatchObject({ created: true });
    expect(fake.webhooks.hooks).toEqual([
      {
        id: created.id,
        active: true,
        url,
        secret: 'hook-secret-1',
        events: [
          'issues',
          'issue_comment',
          'pull_request',
          'pull_request_review',
          'pull_request_review_comment',
          'check_run',
          'check_suite',
          'status',
        ],
      },
    ]);
    // GitHub pings a new hook (here nobody listens: the delivery fails, as it would).
    await fake.webhooks.settled();
    expect(fake.webhooks.deliveries.map((delivery) => delivery.event)).toEqual(['ping']);
    expect(await webhookCheck()).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('is active'),
    });

    // Again, with a rotated secret: the same hook, updated.
    process.env.FLOTILLA_GITHUB_WEBHOOK_SECRET = 'hook-secret-2';
    expect(await ok('github', 'setup-webhook', '--url', url)).toBe(
      `webhook updated (hook ${created.id}): ${url} gets issues, issue_comment, pull_request, pull_request_review, pull_request_review_comment, check_run, check_suite, status\n`,
    );
    expect(fake.webhooks.hooks.map((registered) => registered.secret)).toEqual(['hook-secret-2']);
    const [hook] = fake.webhooks.hooks;
    if (hook !== undefined) hook.active = false;
    expect(await webhookCheck()).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('inactive'),
    });
    delete process.env.FLOTILLA_GITHUB_WEBHOOK_SECRET;
    expect(await webhookCheck()).toBeUndefined();
  });

  it('doctor checks the token, access, labels and prints the rate-limit budget; no token names the variables', async () => {
    await initGitHub();
    const report = async () => {
      const result = await flotilla('doctor', '--json');
      const parsed = JSON.parse(result.stdout) as {
        checks: { name: string; status: string; message: string }[];
      };
      return Object.fromEntries(
        parsed.checks.filter((line) => line.name.startsWith('github')).map((line) => [line.name, line]),
      );
    };
    const before = await report();
    expect(before['github-token']).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('flotilla-bot'),
    });
    expect(before['github-access']).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('write access'),
    });
    expect(before['github-labels']?.status).toBe('warn');
    expect(before['github-quota']?.message).toMatch(
      /^GitHub rate limit: \d+\/5000 requests left, resets \d\d:\d\d UTC$/,
    );
    // One identity opens pull requests and reviews: said, with a warning and how to add a second.
    expect(before['github-identities']).toMatchObject({
      status: 'warn',
      message: expect.stringContaining(
        'pull requests are opened by flotilla-bot (FLOTILLA_GITHUB_TOKEN); reviews are posted by the same account',
      ),
    });
    await ok('github', 'setup-labels');
    expect((await report())['github-labels']?.status).toBe('ok');
    process.env.FLOTILLA_GITHUB_REVIEWER_TOKEN = 'cli-reviewer-token';
    expect((await report())['github-identities']).toMatchObject({
      status: 'ok',
      message:
        'pull requests are opened by flotilla-bot (FLOTILLA_GITHUB_TOKEN); reviews are posted by flotilla-reviewer (FLOTILLA_GITHUB_REVIEWER_TOKEN)',
    });
    delete process.env.FLOTILLA_GITHUB_REVIEWER_TOKEN;

    // A fake token: one cheap authenticated call names it, not "cannot reach" and not a later request.
    process.env.FLOTILLA_GITHUB_TOKEN = 'ghp_not-a-real-token';
    const fakeToken = await report();
    expect(Object.keys(fakeToken)).toEqual(['github-token']);
    expect(fakeToken['github-token']).toMatchObject({
      status: 'fail',
      message:
        'GitHub rejected the token in FLOTILLA_GITHUB_TOKEN (401 Bad credentials) on GET /user: set FLOTILLA_GITHUB_TOKEN to a valid token with access to the repository',
    });
    const check = await flotilla('github', 'check');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(
      '✗ GitHub rejected the token in FLOTILLA_GITHUB_TOKEN (401 Bad credentials)',
    );
    expect(check.stdout + check.stderr).not.toContain('ghp_not-a-real-token');
    process.env.FLOTILLA_GITHUB_TOKEN = TOKEN;
    process.env.FLOTILLA_GITHUB_REVIEWER_TOKEN = 'revoked-reviewer-token';
    expect((await report())['github-token']?.message).toContain(
      'GitHub rejected the token in FLOTILLA_GITHUB_REVIEWER_TOKEN (401 Bad credentials)',
    );
    delete process.env.FLOTILLA_GITHUB_REVIEWER_TOKEN;

    delete process.env.FLOTILLA_GITHUB_TOKEN;
    const noToken = await report();
    expect(noToken['github-token']).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('set FLOTILLA_GITHUB_TOKEN (or GITHUB_TOKEN)'),
    });
    const list = await flotilla('work', 'list');
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('no GitHub token: set FLOTILLA_GITHUB_TOKEN');
  });
});

describe('flotilla work … on provider github', { timeout: 60_000 }, () => {
  it('creates, lists, shows, transitions, comments, edits, closes and reopens issues', async () => {
    await initGitHub();
    expect(
      await ok('work', 'create', '--title', 'Add greet', '--body', 'Say hello.', '--label', 'priority:high'),
    ).toBe(`created #1 (pending task): Add greet\nacme/widgets#1\n`);
    await ok('work', 'create', '--title', 'Add farewell', '--blocked-by', '1');
    expect(await ok('work', 'list')).toMatch(
      /#1\s+pending\s+task\s+high\s+-\s+-\s+Add greet\n#2\s+pending\s+task\s+-\s+#1/,
    );
    expect(await ok('work', 'transition', '1', 'ready')).toBe('#1 pending → ready\n');
    await ok('work', 'comment', '1', '--body', 'Please keep it short.');
    expect(fake.issueComments(1).at(-1)).toMatch(/^Please keep it short\.\n\n— .+ \(via flotilla\)$/);
    await ok('work', 'edit', '1', '--body', 'Say hello, briefly.');
    const shown = await json('work', 'show', '1', '--json');
    expect(shown).toMatchObject({ id: '1', status: 'ready', priority: 'high', body: 'Say hello, briefly.' });
    // The issue's history through the provider's `history` capability: its labels and every comment.
    expect(shown.labels).toEqual(expect.arrayContaining(['priority:high', 'status:ready']));
    expect(shown.comments.map((comment: { body: string }) => comment.body)).toEqual([
      expect.stringMatching(/^Please keep it short\./),
    ]);
    const second = await ok('work', 'show', '2');
    expect(second).toContain('waiting for: #1 (ready)');
    expect(second).toContain('page: acme/widgets#2');

    expect(await ok('work', 'close', '2', '--comment', 'Not needed.')).toBe('closed #2 (was pending)\n');
    expect((await json('work', 'list', '--json')).map((item: { id: string }) => item.id)).toEqual(['1']);
    expect(await ok('work', 'reopen', '2')).toContain('reopened #2 as pending');

    // What the provider contract cannot do is refused, saying where to do it.
    const closedList = await flotilla('work', 'list', '--all');
    expect([closedList.code, closedList.stderr]).toEqual([
      2,
      'flotilla work list: with provider github only open work items are listed; closed ones: acme/widgets issues on GitHub\n',
    ]);
    const title = await flotilla('work', 'edit', '1', '--title', 'x');
    expect(title.code).toBe(2);
    expect(title.stderr).toContain('edit the title, labels and blockers on the issue');
    const merge = await flotilla('merge', '1');
    expect([merge.code, merge.stderr]).toEqual([
      1,
      'flotilla merge: #1 is ready, not approved; only approved items are merged, and it has no revision yet, so there is nothing to merge (an implementor makes one once `flotilla run` dispatches it)\n',
    ]);
    const diff = await flotilla('diff', '1');
    expect([diff.code, diff.stderr]).toEqual([
      1,
      'flotilla diff: #1 has no open pull request so there is no diff (it is ready)\n',
    ]);
    expect((await flotilla('branches')).code).toBe(2);
  });
});

describe('flotilla answer with provider github', { timeout: 60_000 }, () => {
  it('posts the answers as a comment on the waiting issue (the engine reads it back); refuses an item not waiting', async () => {
    await initGitHub();
    await ok('work', 'create', '--title', 'Store');
    const notWaiting = await flotilla('answer', '1', 'Use SQLite.');
    expect([notWaiting.code, notWaiting.stderr]).toEqual([
      1,
      'flotilla answer: #1 is pending, not waiting-for-input: no agent is waiting for answers (`flotilla work list --status waiting-for-input` lists those that are)\n',
    ]);
    fake.human.setIssueLabels(1, ['task:implement', 'status:waiting-for-input']);
    expect(await ok('answer', '1', 'Use SQLite.')).toBe(
      "answered #1 with a comment on acme/widgets#1; the agent's session resumes with it (at once if flotilla run is running, else at its next start)\n",
    );
    expect(fake.issueComments(1)).toEqual(['<!-- flotilla:answer -->\nUse SQLite.']);
  });
});
