import { describe, expect, it } from 'vitest';
import type { AgentReview } from '../../../src/domain/index.ts';
import type { CreateRevisionInput } from '../../../src/providers/types.ts';
import { PATCH_CONFLICT_MARKER } from './check-patch-applies.ts';
import { createInMemoryProvider, type InMemoryProviderOptions } from './create-in-memory-provider.ts';

const PATCH_V1 = [
  'diff --git a/src/a.ts b/src/a.ts',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/src/a.ts',
  '@@ -0,0 +1 @@',
  '+export const a = 1;',
  '',
].join('\n');

const PATCH_V2 = [
  'diff --git a/src/a.ts b/src/a.ts',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/src/a.ts',
  '@@ -0,0 +1 @@',
  '+export const a = 2;',
  'diff --git a/README.md b/README.md',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1 +1 @@',
  '-old',
  '+new',
  '',
].join('\n');

const APPROVE: AgentReview = { verdict: 'approve', summary: 'Looks good', comments: [] };
const NEEDS_CHANGES: AgentReview = {
  verdict: 'needs-changes',
  summary: 'Fix the constant',
  comments: [
    { path: 'src/a.ts', line: 1, body: 'should be 3' },
    { path: 'src/a.ts', line: null, body: 'and add a test' },
  ],
};

async function setup(options: InMemoryProviderOptions = {}) {
  const provider = createInMemoryProvider(options);
  const item = await provider.workItemWriter.createWorkItem({
    title: 'Add a',
    body: 'body',
    labels: [],
    blockedBy: [],
  });
  const request = (overrides: Partial<CreateRevisionInput> = {}): CreateRevisionInput => ({
    workItemID: item.id,
    patch: PATCH_V1,
    branchName: `flotilla/${item.id}`,
    title: '',
    body: `Closes #${item.id}`,
    ...overrides,
  });
  return { provider, item, request };
}

describe('in-memory revisions: createFromPatch', () => {
  it('creates a revision linked to the work item, numbered in the shared sequence', async () => {
    const { provider, item, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    expect(revision).toEqual({
      id: '2',
      title: 'Add a',
      url: 'memory://revisions/2',
      headSHA: expect.stringMatching(/^[0-9a-f]{40}$/),
      headRef: 'flotilla/1',
      author: 'flotilla',
      body: 'Closes #1',
      isDraft: false,
      workItemID: item.id,
      pipeline: { status: 'pending', url: null, reason: null },
      reviewID: null,
    });
    expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBe('2');
    expect(await provider.revisionReader.getRevision('2')).toEqual(revision);
    expect(provider.control.revisionRecord('2').patch).toBe(PATCH_V1);
  });

  it('uses the given title when there is one', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request({ title: 'Custom title' }));
    expect(revision.title).toBe('Custom title');
  });

  it('starts the pipeline as configured (success simulates "no CI")', async () => {
    const { provider, request } = await setup({ initialPipelineStatus: 'success' });
    const revision = await provider.revisionWriter.createFromPatch(request());
    expect(revision.pipeline).toEqual({ status: 'success', url: null, reason: null });
  });

  it('updates the open revision for the same branch: new head SHA, pipeline reset, new patch kept', async () => {
    const { provider, request } = await setup();
    const first = await provider.revisionWriter.createFromPatch(request());
    provider.control.setPipeline(first.id, 'success');
    await provider.revisionWriter.updateBody(first.id, 'edited body');
    const second = await provider.revisionWriter.createFromPatch(
      request({ patch: PATCH_V2, body: 'ignored' }),
    );
    expect(second.id).toBe(first.id);
    expect(second.headSHA).not.toBe(first.headSHA);
    expect(second.headSHA).toMatch(/^[0-9a-f]{40}$/);
    expect(second.pipeline).toEqual({ status: 'pending', url: null, reason: null });
    expect(second.body).toBe('edited body');
    expect(provider.control.revisionRecord(first.id)).toMatchObject({
      patch: PATCH_V2,
      patches: [PATCH_V1, PATCH_V2],
    });
    expect(await provider.revisionReader.listRevisions()).toHaveLength(1);
  });

  it('changes the head SHA even when the same patch is pushed again', async () => {
    const { provider, request } = await setup();
    const first = await provider.revisionWriter.createFromPatch(request());
    const second = await provider.revisionWriter.createFromPatch(request());
    expect(second.headSHA).not.toBe(first.headSHA);
  });

  it('opens a new revision when the branch’s earlier revision is closed', async () => {
    const { provider, request } = await setup();
    const first = await provider.revisionWriter.createFromPatch(request());
    provider.control.closeRevision(first.id);
    const second = await provider.revisionWriter.createFromPatch(request());
    expect(second.id).not.toBe(first.id);
  });

  it('rejects a patch that does not apply (default marker) and writes nothing', async () => {
    const { provider, request } = await setup();
    await expect(
      provider.revisionWriter.createFromPatch(request({ patch: `${PATCH_V1}${PATCH_CONFLICT_MARKER}\n` })),
    ).rejects.toThrow('does not apply');
    await expect(provider.revisionWriter.createFromPatch(request({ patch: '  \n' }))).rejects.toThrow(
      'empty',
    );
    expect(provider.control.revisionRecords()).toEqual([]);
    expect((await provider.workItemReader.getWorkItem('1'))?.linkedRevision).toBeNull();
  });

  it('rejecting an update leaves the existing revision untouched', async () => {
    const { provider, request } = await setup();
    const first = await provider.revisionWriter.createFromPatch(request());
    await expect(
      provider.revisionWriter.createFromPatch(request({ patch: PATCH_CONFLICT_MARKER })),
    ).rejects.toThrow();
    expect(await provider.revisionReader.getRevision(first.id)).toEqual(first);
    expect(provider.control.revisionRecord(first.id).patches).toEqual([PATCH_V1]);
  });

  it('uses an injected applyPatch check', async () => {
    const { provider, request } = await setup({
      applyPatch: (input) => {
        if (input.patch.includes('README')) throw new Error('conflict in README.md');
      },
    });
    await expect(provider.revisionWriter.createFromPatch(request({ patch: PATCH_V2 }))).rejects.toThrow(
      'conflict in README.md',
    );
    // The injected check replaces the default one: the marker is accepted now.
    await expect(
      provider.revisionWriter.createFromPatch(request({ patch: PATCH_CONFLICT_MARKER })),
    ).resolves.toMatchObject({ id: '2' });
  });

  it('throws for an unknown work item and writes nothing', async () => {
    const { provider, request } = await setup();
    await expect(provider.revisionWriter.createFromPatch(request({ workItemID: '42' }))).rejects.toThrow(
      'work item 42 does not exist',
    );
    expect(provider.control.revisionRecords()).toEqual([]);
  });

  it('uses a custom engine author', async () => {
    const { provider, request } = await setup({ engineAuthor: 'bot[bot]' });
    const revision = await provider.revisionWriter.createFromPatch(request());
    expect(revision.author).toBe('bot[bot]');
    await provider.revisionWriter.postReview(revision.id, APPROVE);
    expect((await provider.revisionReader.getReviewHistory(revision.id)).reviews[0]?.author).toBe('bot[bot]');
  });
});

describe('in-memory revisions: readers', () => {
  it('listRevisions returns open revisions only; getRevision finds closed ones and null for unknown', async () => {
    const { provider, request } = await setup();
    const open = await provider.revisionWriter.createFromPatch(request());
    const closed = provider.control.addRevision({ branchName: 'other' });
    provider.control.closeRevision(closed.id);
    expect((await provider.revisionReader.listRevisions()).map((revision) => revision.id)).toEqual([open.id]);
    expect(await provider.revisionReader.getRevision(closed.id)).toMatchObject({ id: closed.id });
    expect(await provider.revisionReader.getRevision('404')).toBeNull();
  });

  it('returns deep copies', async () => {
    const { provider, request } = await setup();
    const created = await provider.revisionWriter.createFromPatch(request());
    if (created.pipeline) created.pipeline.status = 'failure';
    const [listed] = await provider.revisionReader.listRevisions();
    if (!listed?.pipeline) throw new Error('expected a pipeline');
    listed.pipeline.status = 'success';
    listed.title = 'mutated';
    const files = await provider.revisionReader.getRevisionFiles(created.id);
    files.pop();
    expect(await provider.revisionReader.getRevision(created.id)).toMatchObject({
      title: 'Add a',
      pipeline: { status: 'pending' },
    });
    expect(await provider.revisionReader.getRevisionFiles(created.id)).toHaveLength(1);
  });

  it('getRevisionFiles parses the latest patch; unknown ids throw', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    expect(await provider.revisionReader.getRevisionFiles(revision.id)).toEqual([
      { path: 'src/a.ts', status: 'added', patch: '@@ -0,0 +1 @@\n+export const a = 1;' },
    ]);
    await provider.revisionWriter.createFromPatch(request({ patch: PATCH_V2 }));
    expect(
      (await provider.revisionReader.getRevisionFiles(revision.id)).map(({ path, status }) => [path, status]),
    ).toEqual([
      ['src/a.ts', 'added'],
      ['README.md', 'modified'],
    ]);
    await expect(provider.revisionReader.getRevisionFiles('404')).rejects.toThrow(
      'revision 404 does not exist',
    );
  });

  it('getReviewHistory throws for unknown ids and is empty for a fresh revision', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    expect(await provider.revisionReader.getReviewHistory(revision.id)).toEqual({
      reviews: [],
      inlineComments: [],
    });
    await expect(provider.revisionReader.getReviewHistory('404')).rejects.toThrow('revision 404');
  });
});

describe('in-memory revisions: reviews and comments', () => {
  it('postReview records the review, returns its id and sets reviewID', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const reviewID = await provider.revisionWriter.postReview(revision.id, NEEDS_CHANGES);
    expect(reviewID).toMatch(/^\d+$/);
    expect(reviewID).not.toBe(revision.id);
    expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(reviewID);
    expect((await provider.revisionReader.listRevisions())[0]?.reviewID).toBe(reviewID);
    expect(await provider.revisionReader.getReviewHistory(revision.id)).toEqual({
      reviews: [{ author: 'flotilla', state: 'CHANGES_REQUESTED', body: 'Fix the constant' }],
      inlineComments: [
        { path: 'src/a.ts', line: 1, author: 'flotilla', body: 'should be 3' },
        { path: 'src/a.ts', line: null, author: 'flotilla', body: 'and add a test' },
      ],
    });
    expect(provider.control.reviews(revision.id)).toEqual([
      {
        id: reviewID,
        author: 'flotilla',
        state: 'CHANGES_REQUESTED',
        body: 'Fix the constant',
        comments: NEEDS_CHANGES.comments,
      },
    ]);
  });

  it('updateReview dismisses the earlier review and posts the replacement', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const first = await provider.revisionWriter.postReview(revision.id, NEEDS_CHANGES);
    const second = await provider.revisionWriter.updateReview(revision.id, first, APPROVE);
    expect(second).not.toBe(first);
    expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(second);
    expect((await provider.revisionReader.getReviewHistory(revision.id)).reviews).toEqual([
      { author: 'flotilla', state: 'DISMISSED', body: 'Fix the constant' },
      { author: 'flotilla', state: 'APPROVED', body: 'Looks good' },
    ]);
  });

  it('updateReview throws for a review that is not on the revision and writes nothing', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const other = provider.control.addRevision({ branchName: 'other' });
    const reviewOnOther = await provider.revisionWriter.postReview(other.id, APPROVE);
    await expect(provider.revisionWriter.updateReview(revision.id, reviewOnOther, APPROVE)).rejects.toThrow(
      `review ${reviewOnOther} does not exist on revision ${revision.id}`,
    );
    expect(provider.control.reviews(revision.id)).toEqual([]);
    expect(provider.control.reviews(other.id)[0]?.state).toBe('APPROVED');
  });

  it('reviews on unknown, closed or merged revisions throw', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const reviewID = await provider.revisionWriter.postReview(revision.id, APPROVE);
    await expect(provider.revisionWriter.postReview('404', APPROVE)).rejects.toThrow('revision 404');
    provider.control.mergeRevision(revision.id);
    await expect(provider.revisionWriter.postReview(revision.id, APPROVE)).rejects.toThrow('is merged');
    await expect(provider.revisionWriter.updateReview(revision.id, reviewID, APPROVE)).rejects.toThrow(
      'is merged',
    );
  });

  it('postComment and updateBody are recorded; unknown ids throw', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    await provider.revisionWriter.postComment(revision.id, 'one');
    await provider.revisionWriter.postComment(revision.id, 'two');
    await provider.revisionWriter.updateBody(revision.id, 'Closes #1\n\nSummary');
    expect(provider.control.revisionComments(revision.id)).toEqual(['one', 'two']);
    expect((await provider.revisionReader.getRevision(revision.id))?.body).toBe('Closes #1\n\nSummary');
    await expect(provider.revisionWriter.postComment('404', 'x')).rejects.toThrow('revision 404');
    await expect(provider.revisionWriter.updateBody('404', 'x')).rejects.toThrow('revision 404');
  });
});

describe('in-memory revisions: outside-world control', () => {
  it('addRevision opens a human revision with sensible defaults', async () => {
    const { provider, item } = await setup();
    const linked = provider.control.addRevision({ branchName: 'feature', workItemID: item.id });
    expect(linked).toMatchObject({
      title: 'Add a',
      body: `Closes #${item.id}`,
      author: 'human',
      workItemID: item.id,
      pipeline: { status: 'pending' },
      isDraft: false,
    });
    const unlinked = provider.control.addRevision({
      branchName: 'chore',
      title: 'Chore',
      body: 'no link',
      author: 'alice',
      isDraft: true,
      pipeline: 'success',
      patch: PATCH_V1,
    });
    expect(unlinked).toMatchObject({ title: 'Chore', workItemID: null, author: 'alice', isDraft: true });
    expect(unlinked.pipeline).toEqual({ status: 'success', url: null, reason: null });
    expect(await provider.revisionReader.getRevisionFiles(unlinked.id)).toHaveLength(1);
    const bare = provider.control.addRevision({ branchName: 'bare', pipeline: null });
    expect(bare).toMatchObject({ title: 'bare', body: '', pipeline: null });
    const full = provider.control.addRevision({
      branchName: 'full',
      pipeline: { status: 'failure', url: 'http://ci/1', reason: 'lint' },
    });
    expect(full.pipeline).toEqual({ status: 'failure', url: 'http://ci/1', reason: 'lint' });
    expect(provider.control.calls().map((call) => call.method)).toEqual([
      'createWorkItem',
      'getRevisionFiles',
    ]);
  });

  it('setPipeline sets success with url, failure with url and reason, pending, or null (failed CI fetch)', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const pipeline = async () => (await provider.revisionReader.listRevisions())[0]?.pipeline;

    provider.control.setPipeline(revision.id, 'failure', { url: 'https://ci/42', reason: 'unit tests' });
    expect(await pipeline()).toEqual({ status: 'failure', url: 'https://ci/42', reason: 'unit tests' });
    provider.control.setPipeline(revision.id, 'failure');
    expect(await pipeline()).toEqual({ status: 'failure', url: null, reason: 'checks failed' });
    provider.control.setPipeline(revision.id, 'success', { url: 'https://ci/43', reason: 'ignored' });
    expect(await pipeline()).toEqual({ status: 'success', url: 'https://ci/43', reason: null });
    provider.control.setPipeline(revision.id, null);
    expect(await pipeline()).toBeNull();
    provider.control.setPipeline(revision.id, 'pending');
    expect(await pipeline()).toEqual({ status: 'pending', url: null, reason: null });
    expect(() => provider.control.setPipeline('404', 'success')).toThrow('revision 404');
  });

  it('pushToRevision moves the head and resets the pipeline', async () => {
    const { provider, request } = await setup({ initialPipelineStatus: 'pending' });
    const revision = await provider.revisionWriter.createFromPatch(request());
    provider.control.setPipeline(revision.id, 'failure');
    const pushed = provider.control.pushToRevision(revision.id, PATCH_V2);
    expect(pushed.headSHA).not.toBe(revision.headSHA);
    expect(pushed.pipeline?.status).toBe('pending');
    expect(await provider.revisionReader.getRevisionFiles(revision.id)).toHaveLength(2);
  });

  it('mergeRevision closes the revision and its work item and moves the default branch', async () => {
    const { provider, item, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const before = await provider.specReader.getDefaultBranchSHA();
    provider.control.mergeRevision(revision.id);
    expect(await provider.revisionReader.listRevisions()).toEqual([]);
    expect(provider.control.revisionRecord(revision.id).state).toBe('merged');
    expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
      status: 'closed',
      linkedRevision: null,
    });
    expect(await provider.specReader.getDefaultBranchSHA()).not.toBe(before);
    expect(() => provider.control.mergeRevision(revision.id)).toThrow('is merged');
  });

  it('mergeRevision can leave the work item open', async () => {
    const { provider, item, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    provider.control.mergeRevision(revision.id, { closeWorkItem: false });
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('pending');
  });

  it('closeRevision drops it from listRevisions and unlinks the work item', async () => {
    const { provider, item, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    provider.control.closeRevision(revision.id);
    expect(await provider.revisionReader.listRevisions()).toEqual([]);
    expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
      status: 'pending',
      linkedRevision: null,
    });
    expect(() => provider.control.closeRevision('404')).toThrow('revision 404');
  });

  it('addReview adds a human review to the history without touching reviewID', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    const engineReview = await provider.revisionWriter.postReview(revision.id, APPROVE);
    provider.control.addReview(revision.id, {
      author: 'alice',
      state: 'COMMENTED',
      body: 'nit',
      comments: [{ path: 'README.md', line: 2, body: 'typo' }],
    });
    provider.control.addReview(revision.id, { author: 'bob', state: 'APPROVED', body: 'ok' });
    expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(engineReview);
    expect(await provider.revisionReader.getReviewHistory(revision.id)).toEqual({
      reviews: [
        { author: 'flotilla', state: 'APPROVED', body: 'Looks good' },
        { author: 'alice', state: 'COMMENTED', body: 'nit' },
        { author: 'bob', state: 'APPROVED', body: 'ok' },
      ],
      inlineComments: [{ path: 'README.md', line: 2, author: 'alice', body: 'typo' }],
    });
  });

  it('revisionRecord(s), revisionComments and reviews return copies', async () => {
    const { provider, request } = await setup();
    const revision = await provider.revisionWriter.createFromPatch(request());
    await provider.revisionWriter.postComment(revision.id, 'c');
    await provider.revisionWriter.postReview(revision.id, NEEDS_CHANGES);
    provider.control.revisionRecord(revision.id).comments.push('x');
    provider.control.revisionRecords()[0]?.patches.push('x');
    provider.control.revisionComments(revision.id).push('x');
    provider.control.reviews(revision.id)[0]?.comments.push({ path: 'x', line: null, body: 'x' });
    const record = provider.control.revisionRecord(revision.id);
    expect(record.comments).toEqual(['c']);
    expect(record.patches).toEqual([PATCH_V1]);
    expect(record.reviews[0]?.comments).toHaveLength(2);
    expect(() => provider.control.reviews('404')).toThrow('revision 404');
  });
});
