import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubTestProvider } from '../../../../test/support/github/create-github-test-provider.ts';
import {
  buildContractAddPatch,
  CONTRACT_BASE_FILES,
} from '../../../../test/support/provider-contract/provider-contract-suite.ts';
import { createFakeGitHub, FAILING_CHECK_LOG } from '../../../demo/fake-github/create-fake-github.ts';
import { silentLogger } from '../../../logging/logger.ts';
import { createGitHubProvider } from '../create-github-provider.ts';

const TOKEN = 'ghp_revisions';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const github = await createFakeGitHub({ token: TOKEN, baseFiles: CONTRACT_BASE_FILES });
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-github-revisions-'));
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
    env: { GITHUB_TOKEN: TOKEN },
    logger: silentLogger,
    client: { quota: { writeIntervalMs: 0 } },
  });
  const createItem = (title: string) =>
    provider.workItemWriter.createWorkItem({ title, body: '', labels: [], blockedBy: [] });
  const revise = (id: string, path = 'src/a.ts') =>
    provider.revisionWriter.createFromPatch({
      workItemID: id,
      patch: buildContractAddPatch(path, `export const x = '${path}';\n`),
      branchName: `flotilla/${id}`,
      title: '',
      body: `Closes #${id}`,
    });
  return { github, provider, createItem, revise };
}

describe('GitHub revisions', () => {
  it('creates revisions for several items at once (one patch at a time in the mirror)', async () => {
    const { provider, createItem, revise } = await setup();
    const items = await Promise.all(['a', 'b', 'c'].map(createItem));
    const revisions = await Promise.all(items.map((item) => revise(item.id, `src/${item.title}.ts`)));
    expect(revisions.map((revision) => revision.workItemID)).toEqual(items.map((item) => item.id));
    expect((await provider.revisionReader.listRevisions()).map((revision) => revision.headRef)).toEqual(
      items.map((item) => `flotilla/${item.id}`),
    );
  });

  it('refuses to overwrite a pull request branch a human pushed to', async () => {
    const { github, provider, createItem, revise } = await setup();
    const item = await createItem('a');
    const revision = await revise(item.id);
    const human = await github.git.commitFiles(`flotilla/${item.id}`, { 'fix.txt': 'by hand\n' }, 'fix');
    await expect(revise(item.id, 'src/b.ts')).rejects.toThrow(/moved on the remote/);
    expect(await github.git.resolveCommit(`refs/heads/flotilla/${item.id}`)).toBe(human);
    expect((await provider.revisionReader.getRevision(revision.id))?.headSHA).toBe(human);
  });

  it('keeps review comments GitHub cannot place on the diff, in a conversation comment it reads back', async () => {
    const { github, provider, createItem, revise } = await setup();
    const item = await createItem('a');
    const revision = await revise(item.id);
    await provider.revisionWriter.postReview(revision.id, {
      verdict: 'needs-changes',
      summary: 'Two things',
      comments: [
        { path: 'src/a.ts', line: 1, body: 'on the diff' },
        { path: 'docs/elsewhere.md', line: 3, body: 'not in this pull request' },
      ],
    });
    expect(await provider.revisionReader.getReviewHistory(revision.id)).toEqual({
      reviews: [{ author: github.login, state: 'CHANGES_REQUESTED', body: 'Two things' }],
      inlineComments: [
        { path: 'src/a.ts', line: 1, author: github.login, body: 'on the diff' },
        { path: 'docs/elsewhere.md', line: 3, author: github.login, body: 'not in this pull request' },
      ],
    });
    const [conversation] = github.issueComments(Number(revision.id));
    expect(conversation).toContain('- `docs/elsewhere.md:3`: not in this pull request');
  });

  it('a force-push by a human: the engine sees the new head, nothing is overwritten', async () => {
    const { github, provider, createItem, revise } = await setup();
    const item = await createItem('a');
    const revision = await revise(item.id);
    const rewritten = await github.human.forcePush(`flotilla/${item.id}`, { 'mine.txt': 'rewritten\n' });
    expect((await provider.revisionReader.listRevisions()).map((listed) => listed.headSHA)).toEqual([
      rewritten,
    ]);
    expect((await provider.revisionReader.getRevision(revision.id))?.headSHA).toBe(rewritten);
    await expect(revise(item.id, 'src/b.ts')).rejects.toThrow(/moved on the remote.*refusing to overwrite/);
    expect(await github.git.resolveCommit(`refs/heads/flotilla/${item.id}`)).toBe(rewritten);
  });

  it('a pull request closed by a human is neither reopened nor replaced', async () => {
    const { github, provider, createItem, revise } = await setup();
    const item = await createItem('a');
    const revision = await revise(item.id);
    const head = revision.headSHA;
    github.human.closePullRequest(Number(revision.id));
    expect(await provider.revisionReader.listRevisions()).toEqual([]);
    expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBeNull();
    await expect(revise(item.id, 'src/b.ts')).rejects.toThrow(
      `Pull request #${revision.id} for work item ${item.id} was closed on GitHub without merging`,
    );
    expect(await github.git.resolveCommit(`refs/heads/flotilla/${item.id}`)).toBe(head);
    expect(
      github.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/pulls')),
    ).toHaveLength(1);
    await expect(provider.revisionWriter.mergeRevision?.(revision.id)).rejects.toThrow(
      /is not open .*closed/,
    );
  });

  it('drafts: listed with isDraft (GraphQL and REST agree); a re-push leaves a draft a draft', async () => {
    const { github, provider, createItem, revise } = await setup();
    const human = await github.human.openPullRequest({
      branch: 'wip',
      files: { 'wip.txt': 'x\n' },
      title: 'WIP',
      draft: true,
    });
    const item = await createItem('a');
    const ours = await revise(item.id);
    expect(ours.isDraft).toBe(false);
    github.human.setDraft(Number(ours.id), true);
    const listed = await provider.revisionReader.listRevisions();
    expect(listed.map((revision) => [revision.id, revision.isDraft])).toEqual([
      [String(human), true],
      [ours.id, true],
    ]);
    for (const revision of listed)
      expect(await provider.revisionReader.getRevision(revision.id)).toEqual(revision);
    expect((await revise(item.id, 'src/b.ts')).isDraft).toBe(true);
  });

  it('the failed checks’ output and annotations are the checks log tail', async () => {
    const fixture = await createGitHubTestProvider({ baseFiles: CONTRACT_BASE_FILES, ci: 'failing' });
    cleanups.push(fixture.cleanup);
    const { github, provider } = fixture;
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
      body: '',
    });
    expect(await provider.revisionReader.getChecksOutputTail?.(revision.id)).toBeNull(); // still running
    await github.settleChecks();
    const tail = await provider.revisionReader.getChecksOutputTail?.(revision.id);
    const pipeline = (await provider.revisionReader.getRevision(revision.id))?.pipeline;
    expect(pipeline?.status).toBe('failure');
    expect(tail).toEqual({
      text: [
        'test: 1 test failed',
        'expected 1, got 2',
        FAILING_CHECK_LOG,
        'src/a.test.ts:3: failure: AssertionError: expected 1, got 2',
      ].join('\n'),
      truncated: false,
      logPath: pipeline?.url,
    });
  });
});
