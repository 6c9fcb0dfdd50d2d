import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../logging/logger.ts';
import { buildContractAddPatch, CONTRACT_BASE_FILES } from '../../contract/provider-contract-suite.ts';
import { createGitHubProvider } from '../create-github-provider.ts';
import { createFakeGitHub } from '../testing/create-fake-github.ts';

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
});
