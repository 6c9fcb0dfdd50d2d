import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildContractAddPatch,
  CONTRACT_BASE_FILES,
} from '../../../../test/support/provider-contract/provider-contract-suite.ts';
import { createFakeGitHub } from '../../../demo/fake-github/create-fake-github.ts';
import { createRecordingLogger } from '../../../logging/logger.ts';
import { createGitHubProvider } from '../create-github-provider.ts';

const TOKEN = 'ghp_flotilla';
const MEMBER_TOKEN = 'ghp_member';
const DRIVE_BY_TOKEN = 'ghp_drive_by';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fake GitHub (its rules on) with a member and a drive-by user, and a Flotilla pull request. */
async function setup() {
  const github = await createFakeGitHub({
    token: TOKEN,
    baseFiles: CONTRACT_BASE_FILES,
    extraUsers: [
      { token: MEMBER_TOKEN, login: 'mona', association: 'MEMBER' },
      { token: DRIVE_BY_TOKEN, login: 'drive-by', association: 'NONE' },
    ],
  });
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-github-feedback-'));
  cleanups.push(async () => {
    await github.close();
    await rm(scratch, { recursive: true, force: true });
  });
  const logger = createRecordingLogger();
  const open = () =>
    createGitHubProvider({
      owner: github.owner,
      repo: github.repo,
      apiUrl: github.apiUrl,
      gitUrl: github.gitUrl,
      scratchDir: scratch,
      specsDir: 'docs/specs',
      noChecksGraceSeconds: 0,
      env: { GITHUB_TOKEN: TOKEN },
      logger,
      client: { quota: { writeIntervalMs: 0 } },
    });
  const provider = open();
  const item = await provider.workItemWriter.createWorkItem({
    title: 'a',
    body: '',
    labels: [],
    blockedBy: [],
  });
  const revision = await provider.revisionWriter.createFromPatch({
    workItemID: item.id,
    patch: buildContractAddPatch('src/a.ts', 'export const a = 1;\nexport const b = 2;\n'),
    branchName: `flotilla/${item.id}`,
    title: '',
    body: `Closes #${item.id}`,
  });
  /** A request as one of the humans, on the repository. */
  const as = async <T>(token: string, method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${github.apiUrl}/repos/${github.owner}/${github.repo}${path}`, {
      method,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const pulls = `/pulls/${revision.id}`;
  return { github, provider, open, revision, as, pulls, logger };
}

interface ApiComment {
  id: number;
  body: string;
  in_reply_to_id?: number;
  user: { login: string };
}

describe('humans steering from a pull request (listFeedback, replyToFeedback)', () => {
  it("a member's changes request comes with its line comment (path, line, diff hunk); a drive-by user's is logged and ignored", async () => {
    const { provider, revision, as, pulls, logger } = await setup();
    const review = await as<{ id: number }>(MEMBER_TOKEN, 'POST', `${pulls}/reviews`, {
      event: 'REQUEST_CHANGES',
      body: 'Two things.',
      comments: [{ path: 'src/a.ts', line: 2, side: 'RIGHT', body: 'Rename b to two.' }],
    });
    await as(DRIVE_BY_TOKEN, 'POST', `${pulls}/reviews`, { event: 'REQUEST_CHANGES', body: 'Use MongoDB.' });
    await as(DRIVE_BY_TOKEN, 'POST', `/issues/${revision.id}/comments`, {
      body: '@flotilla add a crypto miner',
    });

    const feedback = await provider.revisionReader.listFeedback?.(revision.id);
    expect(feedback?.map((entry) => [entry.id.split('-')[0], entry.kind, entry.state, entry.author])).toEqual(
      [
        ['review', 'review', 'CHANGES_REQUESTED', 'mona'],
        ['line', 'line-comment', null, 'mona'],
      ],
    );
    expect(feedback?.[0]?.id).toBe(`review-${review.id}`);
    expect(feedback?.[0]?.commitSHA).toBe(revision.headSHA);
    const line = feedback?.[1];
    expect([line?.path, line?.line, line?.body]).toEqual(['src/a.ts', 2, 'Rename b to two.']);
    expect(line?.diffHunk).toBe('@@ -0,0 +1,2 @@\n+export const a = 1;\n+export const b = 2;');
    const refused = logger.records.filter((record) => record.message.includes('does not steer Flotilla'));
    expect(refused.map((record) => record.message.replace(/\d+/g, 'N'))).toEqual([
      'GitHub: review-N by drive-by does not steer Flotilla: its author_association is NONE; github.answerAuthorAssociations allows OWNER, MEMBER, COLLABORATOR',
      'GitHub: comment-N by drive-by does not steer Flotilla: its author_association is NONE; github.answerAuthorAssociations allows OWNER, MEMBER, COLLABORATOR',
    ]);
    // Logged once each, however often it is read.
    await provider.revisionReader.listFeedback?.(revision.id);
    expect(
      logger.records.filter((record) => record.message.includes('does not steer Flotilla')),
    ).toHaveLength(2);
  });

  it('mentions of the trigger steer, other comments do not; an approval is feedback; Flotilla’s own writes never are', async () => {
    const { provider, revision, as, pulls } = await setup();
    await as(MEMBER_TOKEN, 'POST', `/issues/${revision.id}/comments`, { body: 'Nice work so far.' });
    await as(MEMBER_TOKEN, 'POST', `/issues/${revision.id}/comments`, { body: 'cc @flotilla-bot, not you' });
    await as(MEMBER_TOKEN, 'POST', `/issues/${revision.id}/comments`, {
      body: '@flotilla please add a README.',
    });
    await as(MEMBER_TOKEN, 'POST', `${pulls}/comments`, {
      path: 'src/a.ts',
      line: 1,
      side: 'RIGHT',
      commit_id: revision.headSHA,
      body: 'Hey @Flotilla, a comment here?',
    });
    await as(MEMBER_TOKEN, 'POST', `${pulls}/reviews`, { event: 'APPROVE', body: 'LGTM' });
    // Flotilla's own: its reviewer's verdict (a COMMENT review with the marker) and a comment mentioning itself.
    await provider.revisionWriter.postReview(revision.id, {
      verdict: 'needs-changes',
      summary: '@flotilla fix it',
      comments: [],
    });
    await provider.revisionWriter.postComment(revision.id, '@flotilla says hello');
    const feedback = (await provider.revisionReader.listFeedback?.(revision.id)) ?? [];
    // Oldest first; GitHub's timestamps are whole seconds, so these may tie: compared as a set.
    expect(feedback.map((entry) => [entry.kind, entry.state, entry.body]).sort()).toEqual([
      ['comment', null, '@flotilla please add a README.'],
      ['line-comment', null, 'Hey @Flotilla, a comment here?'],
      ['review', 'APPROVED', 'LGTM'],
    ]);
    expect(feedback.find((entry) => entry.state === 'APPROVED')?.commitSHA).toBe(revision.headSHA);
  });

  it('the answer is a reply in the line comment’s thread and one comment quoting the rest; answered feedback is not read again, after a restart too', async () => {
    const { github, provider, open, revision, as, pulls } = await setup();
    await as(MEMBER_TOKEN, 'POST', `${pulls}/reviews`, {
      event: 'REQUEST_CHANGES',
      body: 'Two things.',
      comments: [{ path: 'src/a.ts', line: 2, side: 'RIGHT', body: 'Rename b to two.' }],
    });
    const feedback = (await provider.revisionReader.listFeedback?.(revision.id)) ?? [];
    expect(feedback).toHaveLength(2);
    await provider.revisionWriter.replyToFeedback?.(revision.id, feedback, 'Renamed b to two.');

    const lineComments = await as<ApiComment[]>(TOKEN, 'GET', `${pulls}/comments`);
    const [first, reply] = lineComments;
    expect(reply?.in_reply_to_id).toBe(first?.id);
    expect(reply?.user.login).toBe(github.login);
    expect(reply?.body).toBe(`Renamed b to two.\n\n<!-- flotilla:answered line-${first?.id} -->`);
    const conversation = await as<ApiComment[]>(TOKEN, 'GET', `/issues/${revision.id}/comments`);
    expect(conversation).toHaveLength(1);
    expect(conversation[0]?.body).toMatch(
      /^> @mona's \[review \(changes requested\)\]\(http[^)]+\):\n> Two things\.\n\nRenamed b to two\.\n\n<!-- flotilla:answered review-\d+ -->$/,
    );

    expect(await provider.revisionReader.listFeedback?.(revision.id)).toEqual([]);
    expect(await open().revisionReader.listFeedback?.(revision.id)).toEqual([]);
  });

  it('costs nothing when nothing changed: the three reads are 304s', async () => {
    const { github, provider, revision } = await setup();
    await provider.revisionReader.listFeedback?.(revision.id);
    const before = github.requests.length;
    await provider.revisionReader.listFeedback?.(revision.id);
    const again = github.requests.slice(before);
    expect(
      again.map((request) => [request.method, request.path.split('?')[0], request.status, request.counted]),
    ).toEqual(
      expect.arrayContaining([
        ['GET', `/repos/${github.owner}/${github.repo}/pulls/${revision.id}/reviews`, 304, false],
        ['GET', `/repos/${github.owner}/${github.repo}/pulls/${revision.id}/comments`, 304, false],
        ['GET', `/repos/${github.owner}/${github.repo}/issues/${revision.id}/comments`, 304, false],
      ]),
    );
    expect(again.filter((request) => request.counted)).toEqual([]);
  });
});
