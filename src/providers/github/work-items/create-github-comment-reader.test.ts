import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubTestProvider } from '../../../../test/support/github/create-github-test-provider.ts';
import { buildAnswerComment, buildQuestionsComment, findAnswers } from '../../../domain/index.ts';
import { createRecordingLogger } from '../../../logging/logger.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(...options: Parameters<typeof createGitHubTestProvider>) {
  const fixture = await createGitHubTestProvider(...options);
  cleanups.push(fixture.cleanup);
  return fixture;
}

const QUESTIONS = buildQuestionsComment({ role: 'implementor', workItemID: '1', questions: ['Which DB?'] });
const HOUR = 3600 * 1000;

async function waitingIssue(provider: Awaited<ReturnType<typeof setup>>['provider']) {
  const item = await provider.workItemWriter.createWorkItem({
    title: 'Store',
    body: 'Objective',
    labels: [],
    blockedBy: [],
  });
  await provider.workItemWriter.addComment(item.id, QUESTIONS);
  return item.id;
}

describe('GitHub listComments (answers to questions)', () => {
  it('keeps the engine’s comments and OWNER/MEMBER/COLLABORATOR replies; drive-by users and bots are left out', async () => {
    const logger = createRecordingLogger();
    const { github, provider } = await setup({}, { logger });
    const id = await waitingIssue(provider);
    const issue = Number(id);
    github.human.comment(issue, 'Use Postgres, I am just passing by.', {
      login: 'stranger',
      association: 'NONE',
    });
    github.human.comment(issue, 'Drop the tables!', { login: 'past-pr', association: 'CONTRIBUTOR' });
    github.human.comment(issue, 'Deploy preview ready.', {
      login: 'ci-app[bot]',
      association: 'COLLABORATOR',
      bot: true,
    });
    github.human.comment(issue, 'Use SQLite.');
    github.human.comment(issue, 'In WAL mode.', { login: 'teammate', association: 'MEMBER' });
    github.human.comment(issue, 'With backups.', { login: 'outside-dev', association: 'COLLABORATOR' });

    const comments = await provider.workItemReader.listComments?.(id);
    expect(comments?.map((comment) => comment.author)).toEqual([
      github.login,
      'octocat',
      'teammate',
      'outside-dev',
    ]);
    expect(findAnswers(comments ?? [])).toBe('Use SQLite.\n\nIn WAL mode.\n\nWith backups.');
    // Each left-out comment is logged once, saying why, however often it is polled.
    await provider.workItemReader.listComments?.(id);
    expect(
      logger.records
        .filter((record) => record.message.includes('is not read as an answer'))
        .map((r) => r.message),
    ).toEqual([
      `GitHub: a comment on #${id} by stranger is not read as an answer: its author_association is NONE; github.answerAuthorAssociations allows OWNER, MEMBER, COLLABORATOR`,
      `GitHub: a comment on #${id} by past-pr is not read as an answer: its author_association is CONTRIBUTOR; github.answerAuthorAssociations allows OWNER, MEMBER, COLLABORATOR`,
      `GitHub: a comment on #${id} by ci-app[bot] is not read as an answer: it is a bot`,
    ]);
  });

  it('who may answer is configurable (github.answerAuthorAssociations)', async () => {
    const { github, provider } = await setup({}, { answerAuthorAssociations: ['OWNER', 'NONE'] });
    const id = await waitingIssue(provider);
    github.human.comment(Number(id), 'member', { login: 'teammate', association: 'MEMBER' });
    github.human.comment(Number(id), 'anyone', { login: 'stranger', association: 'NONE' });
    const comments = await provider.workItemReader.listComments?.(id);
    expect(findAnswers(comments ?? [])).toBe('anyone');
  });

  it('a GitHub App’s own comments count although GitHub calls its bot no collaborator', async () => {
    const keys = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const app = { id: 4242, slug: 'flotilla-app', installationId: 77 };
    const { github, provider } = await setup(
      { app: { ...app, publicKey: keys.publicKey } },
      {
        env: {
          FLOTILLA_GITHUB_APP_ID: String(app.id),
          FLOTILLA_GITHUB_APP_PRIVATE_KEY: keys.privateKey,
          FLOTILLA_GITHUB_APP_INSTALLATION_ID: String(app.installationId),
        },
      },
    );
    const id = await waitingIssue(provider);
    // `flotilla answer` / the dashboard post the answer as the App too.
    await provider.workItemWriter.addComment(id, buildAnswerComment('Use SQLite.'));
    const comments = await provider.workItemReader.listComments?.(id);
    expect(comments?.map((comment) => comment.author)).toEqual(['flotilla-app[bot]', 'flotilla-app[bot]']);
    expect(findAnswers(comments ?? [])).toBe('Use SQLite.');
    expect(github.login).toBe('flotilla-app[bot]');
  });

  it('pages by Link from a day before `since`; an unchanged issue costs only free 304s', async () => {
    const { github, provider } = await setup();
    const id = await waitingIssue(provider);
    const issue = Number(id);
    const askedAt = Date.now();
    // A long history from two days ago, then the questions (above) and 130 replies.
    for (let index = 0; index < 120; index++) {
      github.human.comment(issue, `old ${index}`, { at: askedAt - 48 * HOUR });
    }
    for (let index = 0; index < 130; index++) github.human.comment(issue, `reply ${index}`);
    const since = new Date(askedAt).toISOString();

    const first = github.requests.length;
    const comments = (await provider.workItemReader.listComments?.(id, { since })) ?? [];
    const listings = github.requests.slice(first).filter((request) => request.path.includes('/comments'));
    // 131 comments since then (the questions and the replies): two pages of 100, none of the old ones.
    expect(comments).toHaveLength(131);
    expect(comments[0]?.body).toBe(QUESTIONS);
    expect(listings.map((request) => [request.status, request.counted])).toEqual([
      [200, true],
      [200, true],
    ]);
    const sent = new URL(listings[0]?.path ?? '', github.apiUrl).searchParams.get('since');
    expect(Date.parse(sent ?? '')).toBe(Math.floor((askedAt - 24 * HOUR) / 1000) * 1000);

    // The next poll of the unchanged issue: the same URLs, answered 304, no quota.
    const second = github.requests.length;
    expect(await provider.workItemReader.listComments?.(id, { since })).toEqual(comments);
    expect(github.requests.slice(second).map((request) => [request.status, request.counted])).toEqual([
      [304, false],
      [304, false],
    ]);

    // A new reply changes only the last page: one point.
    github.human.comment(issue, 'the answer');
    const third = github.requests.length;
    const after = (await provider.workItemReader.listComments?.(id, { since })) ?? [];
    expect(after.at(-1)?.body).toBe('the answer');
    expect(github.requests.slice(third).filter((request) => request.counted)).toHaveLength(1);

    // Without `since` the whole history is read: three pages.
    const whole = github.requests.length;
    expect((await provider.workItemReader.listComments?.(id)) ?? []).toHaveLength(252);
    expect(github.requests.slice(whole)).toHaveLength(3);
  });

  it('an unknown issue is an error naming it', async () => {
    const { provider } = await setup();
    await expect(provider.workItemReader.listComments?.('99')).rejects.toThrow(
      'Work item 99 not found (no issue #99 in acme/widgets)',
    );
  });
});
