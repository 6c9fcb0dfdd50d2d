import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildContractAddPatch,
  CONTRACT_BASE_FILES,
} from '../../../../test/support/provider-contract/provider-contract-suite.ts';
import { createFakeGitHub } from '../../../demo/fake-github/create-fake-github.ts';
import type { AgentReview } from '../../../domain/index.ts';
import { silentLogger } from '../../../logging/logger.ts';
import { createGitHubProvider } from '../create-github-provider.ts';

const TOKEN = 'ghp_author';
const REVIEWER_TOKEN = 'ghp_reviewer';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fake GitHub (its rules on), and a provider with one identity or a separate reviewer token. */
async function setup(env: Record<string, string>) {
  const github = await createFakeGitHub({
    token: TOKEN,
    baseFiles: CONTRACT_BASE_FILES,
    extraUsers: [{ token: REVIEWER_TOKEN, login: 'flotilla-reviewer' }],
  });
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-github-identities-'));
  cleanups.push(async () => {
    await github.close();
    await rm(scratch, { recursive: true, force: true });
  });
  const provider = createGitHubProvider({
    owner: github.owner,
    repo: github.repo,
    apiUrl: github.apiUrl,
    gitUrl: github.gitUrl,
    scratchDir: scratch,
    specsDir: 'docs/specs',
    noChecksGraceSeconds: 0,
    env,
    logger: silentLogger,
    client: { quota: { writeIntervalMs: 0 } },
  });
  const item = await provider.workItemWriter.createWorkItem({
    title: 'a',
    body: '',
    labels: [],
    blockedBy: [],
  });
  const revision = await provider.revisionWriter.createFromPatch({
    workItemID: item.id,
    patch: buildContractAddPatch('src/a.ts', 'export const a = 1;\n'),
    branchName: `flotilla/${item.id}`,
    title: '',
    body: `Closes #${item.id}`,
  });
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${github.apiUrl}/repos/${github.owner}/${github.repo}${path}`, {
      headers: { authorization: `token ${TOKEN}` },
    });
    return (await response.json()) as T;
  };
  return { github, provider, revision, api };
}

const needsChanges: AgentReview = {
  verdict: 'needs-changes',
  summary: 'Please add a test',
  comments: [{ path: 'src/a.ts', line: 1, body: 'off by one' }],
};
const approval: AgentReview = { verdict: 'approve', summary: 'Looks good', comments: [] };

interface ApiReview {
  id: number;
  state: string;
  body: string;
  user: { login: string };
}

describe('GitHub reviews with one identity or two', () => {
  it('one identity: the verdict goes out as a COMMENT review (verdict first, line comments kept) and reads back as the verdict', async () => {
    const { github, provider, revision, api } = await setup({ GITHUB_TOKEN: TOKEN });
    const firstID = await provider.revisionWriter.postReview(revision.id, needsChanges);
    const [posted] = await api<ApiReview[]>(`/pulls/${revision.id}/reviews`);
    expect(posted?.state).toBe('COMMENTED');
    expect(posted?.body.split('\n')[0]).toBe('**Flotilla reviewer: changes requested**');
    expect(posted?.body).toMatch(/<!-- flotilla:verdict needs-changes -->$/);
    const comments = await api<{ path: string; line: number; body: string }[]>(
      `/pulls/${revision.id}/comments`,
    );
    expect(comments.map((comment) => [comment.path, comment.line, comment.body])).toEqual([
      ['src/a.ts', 1, 'off by one'],
    ]);
    // GitHub refused nothing: no 422 was sent, let alone sent again.
    expect(github.requests.filter((request) => request.status === 422)).toEqual([]);
    expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(firstID);

    const secondID = await provider.revisionWriter.updateReview(revision.id, firstID, approval);
    expect((await provider.revisionReader.listRevisions())[0]?.reviewID).toBe(secondID);
    const history = await provider.revisionReader.getReviewHistory(revision.id);
    expect(history.reviews).toEqual([
      { author: 'flotilla-bot', state: 'DISMISSED', body: 'Please add a test' },
      { author: 'flotilla-bot', state: 'APPROVED', body: 'Looks good' },
    ]);
  });

  it('a separate reviewer token: real APPROVE / REQUEST_CHANGES reviews by the reviewer, who the engine reads its reviews from', async () => {
    const { provider, revision, api } = await setup({
      GITHUB_TOKEN: TOKEN,
      FLOTILLA_GITHUB_REVIEWER_TOKEN: REVIEWER_TOKEN,
    });
    const firstID = await provider.revisionWriter.postReview(revision.id, needsChanges);
    expect((await provider.revisionReader.listRevisions())[0]?.reviewID).toBe(firstID);
    const secondID = await provider.revisionWriter.updateReview(revision.id, firstID, approval);
    const reviews = await api<ApiReview[]>(`/pulls/${revision.id}/reviews`);
    expect(reviews.map((review) => [review.user.login, review.state])).toEqual([
      ['flotilla-reviewer', 'DISMISSED'],
      ['flotilla-reviewer', 'APPROVED'],
    ]);
    expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(secondID);
    // The author's pull request is still the main identity's.
    expect((await provider.revisionReader.getRevision(revision.id))?.author).toBe('flotilla-bot');
  });

  it('a review refused for a line off the diff goes again once, without the line comment, which is kept', async () => {
    const { github, provider, revision } = await setup({
      GITHUB_TOKEN: TOKEN,
      FLOTILLA_GITHUB_REVIEWER_TOKEN: REVIEWER_TOKEN,
    });
    const off = { ...needsChanges, comments: [{ path: 'src/a.ts', line: 40, body: 'not on the diff' }] };
    // A line off the diff: the review goes again once, without it (a different request), and the comment is kept.
    await provider.revisionWriter.postReview(revision.id, off);
    const history = await provider.revisionReader.getReviewHistory(revision.id);
    expect(history.inlineComments).toEqual([
      { path: 'src/a.ts', line: 40, author: 'flotilla-reviewer', body: 'not on the diff' },
    ]);
    const posts = () =>
      github.requests.filter((request) => request.method === 'POST' && /\/reviews$/.test(request.path));
    expect(posts().map((request) => request.status)).toEqual([422, 200]);
  });
});

describe('merging under branch protection that requires an approving review', () => {
  it('one identity: GitHub refuses the merge, and the error is its reason in one line', async () => {
    const { github, provider, revision } = await setup({ GITHUB_TOKEN: TOKEN });
    github.setRequiredApprovingReviews(1);
    await provider.revisionWriter.postReview(revision.id, approval);
    await provider.workItemWriter.transitionStatus(revision.workItemID ?? '', 'approved');
    const refused = provider.revisionWriter.mergeRevision?.(revision.id);
    await expect(refused).rejects.toThrow(
      /^GitHub refused to merge revision \d+: At least 1 approving review is required by reviewers with write access\.[^\n]*$/,
    );
    // A 405 fails the same way every time: asked once, never retried.
    expect(
      github.requests.filter((request) => request.method === 'PUT' && /\/merge$/.test(request.path)),
    ).toHaveLength(1);
  });

  it('a separate reviewer: its approval satisfies the rule and the merge goes through', async () => {
    const { github, provider, revision } = await setup({
      GITHUB_TOKEN: TOKEN,
      FLOTILLA_GITHUB_REVIEWER_TOKEN: REVIEWER_TOKEN,
    });
    github.setRequiredApprovingReviews(1);
    await provider.revisionWriter.postReview(revision.id, approval);
    await provider.workItemWriter.transitionStatus(revision.workItemID ?? '', 'approved');
    const merged = await provider.revisionWriter.mergeRevision?.(revision.id);
    expect(merged?.workItem.status).toBe('closed');
  });
});
