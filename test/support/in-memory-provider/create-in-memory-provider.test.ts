import { describe, expect, it } from 'vitest';
import type { ProviderMethodName } from './create-call-recorder.ts';
import { createInMemoryProvider, type InMemoryProvider } from './create-in-memory-provider.ts';

const PATCH = 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n';

/** One harmless call per provider method, against a provider that has an item ("1") and a revision ("2"). */
const CALLS: Record<ProviderMethodName, (provider: InMemoryProvider) => Promise<unknown>> = {
  listWorkItems: (p) => p.workItemReader.listWorkItems(),
  getWorkItem: (p) => p.workItemReader.getWorkItem('1'),
  getWorkItemBody: (p) => p.workItemReader.getWorkItemBody('1'),
  listComments: (p) => p.workItemReader.listComments?.('1') ?? Promise.resolve([]),
  transitionStatus: (p) => p.workItemWriter.transitionStatus('1', 'ready'),
  createWorkItem: (p) =>
    p.workItemWriter.createWorkItem({ title: 't', body: 'b', labels: [], blockedBy: [] }),
  updateWorkItem: (p) => p.workItemWriter.updateWorkItem('1', { body: 'new', labels: null }),
  addComment: (p) => p.workItemWriter.addComment('1', 'hello'),
  listRevisions: (p) => p.revisionReader.listRevisions(),
  getRevision: (p) => p.revisionReader.getRevision('2'),
  getRevisionFiles: (p) => p.revisionReader.getRevisionFiles('2'),
  getReviewHistory: (p) => p.revisionReader.getReviewHistory('2'),
  getChecksOutputTail: (p) => p.revisionReader.getChecksOutputTail?.('2') ?? Promise.resolve(null),
  listFeedback: (p) => p.revisionReader.listFeedback?.('2') ?? Promise.resolve([]),
  createFromPatch: (p) =>
    p.revisionWriter.createFromPatch({
      workItemID: '1',
      patch: PATCH,
      branchName: 'b1',
      title: '',
      body: 'x',
    }),
  updateBody: (p) => p.revisionWriter.updateBody('2', 'body'),
  postReview: (p) => p.revisionWriter.postReview('2', { verdict: 'approve', summary: 's', comments: [] }),
  updateReview: async (p) => {
    const id = await p.revisionWriter.postReview('2', { verdict: 'approve', summary: 's', comments: [] });
    return p.revisionWriter.updateReview('2', id, { verdict: 'approve', summary: 's2', comments: [] });
  },
  postComment: (p) => p.revisionWriter.postComment('2', 'c'),
  deleteRevisionBranch: (p) => p.revisionWriter.deleteRevisionBranch!('2'),
  replyToFeedback: (p) => p.revisionWriter.replyToFeedback?.('2', [], 'answer') ?? Promise.resolve(),
  listSpecs: (p) => p.specReader.listSpecs(),
  getDefaultBranchSHA: (p) => p.specReader.getDefaultBranchSHA(),
  readSpecBlob: (p) =>
    p.specReader.readSpecBlob(p.control.addSpec({ filePath: 's.md', frontmatterStatus: 'draft' }).blobSHA),
  updateRevisionBranch: async (p) => {
    const revision = await p.revisionReader.getRevision('2');
    return p.revisionWriter.updateRevisionBranch!('2', revision!.headSHA);
  },
  // Last: it closes the item and merges the revision the calls above use.
  mergeRevision: (p) => {
    p.control.editWorkItem('1', { status: 'approved' });
    return p.revisionWriter.mergeRevision!('2');
  },
};

function seeded(): InMemoryProvider {
  const provider = createInMemoryProvider();
  provider.control.addWorkItem({ title: 'item' });
  provider.control.addRevision({ branchName: 'b1', workItemID: '1', patch: PATCH });
  return provider;
}

describe('createInMemoryProvider', () => {
  it('exposes the five provider interfaces, the LocalAdmin capability and a control', () => {
    const provider = createInMemoryProvider();
    expect(Object.keys(provider).sort()).toEqual([
      'control',
      'localAdmin',
      'revisionReader',
      'revisionWriter',
      'specReader',
      'workItemReader',
      'workItemWriter',
    ]);
  });

  it('logs every method call in order with its name and arguments', async () => {
    const provider = seeded();
    const methods = Object.keys(CALLS) as ProviderMethodName[];
    for (const method of methods) await CALLS[method](provider);
    const logged = provider.control.calls();
    // updateReview's helper posts a review first.
    expect(logged.map((call) => call.method)).toEqual(
      methods.flatMap((method) =>
        method === 'updateReview'
          ? ['postReview', 'updateReview']
          : method === 'updateRevisionBranch'
            ? ['getRevision', 'updateRevisionBranch']
            : [method],
      ),
    );
    expect(logged.every((call) => call.error === null)).toBe(true);
    expect(logged.find((call) => call.method === 'addComment')?.args).toEqual(['1', 'hello']);
  });

  it('logs argument copies taken at call time', async () => {
    const provider = seeded();
    const input = { title: 't', body: 'b', labels: ['a'], blockedBy: [] as string[] };
    await provider.workItemWriter.createWorkItem(input);
    input.labels.push('later');
    expect(provider.control.calls('createWorkItem')[0]?.args).toEqual([
      { title: 't', body: 'b', labels: ['a'], blockedBy: [] },
    ]);
  });

  it('filters calls by method, returns copies, and clearCalls empties the log', async () => {
    const provider = seeded();
    await provider.workItemReader.listWorkItems();
    await provider.workItemWriter.addComment('1', 'x');
    await provider.workItemReader.listWorkItems();
    expect(provider.control.calls('listWorkItems')).toHaveLength(2);
    provider.control.calls().length = 0;
    expect(provider.control.calls()).toHaveLength(3);
    provider.control.clearCalls();
    expect(provider.control.calls()).toEqual([]);
  });

  it('records the error of a call that throws on its own', async () => {
    const provider = seeded();
    await expect(provider.workItemReader.getWorkItemBody('99')).rejects.toThrow();
    expect(provider.control.calls('getWorkItemBody')).toEqual([
      { method: 'getWorkItemBody', args: ['99'], error: 'in-memory provider: work item 99 does not exist' },
    ]);
  });

  describe('failNext', () => {
    it.each(Object.keys(CALLS) as ProviderMethodName[])(
      'makes the next %s call fail, then recover',
      async (method) => {
        const provider = seeded();
        provider.control.failNext(method);
        await expect(CALLS[method](provider)).rejects.toThrow(`injected failure in ${method}`);
        await CALLS[method](provider);
      },
    );

    it('fails the given number of calls with the given error and writes nothing', async () => {
      const provider = seeded();
      provider.control.failNext('addComment', { times: 2, error: 'rate limited' });
      await expect(provider.workItemWriter.addComment('1', 'a')).rejects.toThrow('rate limited');
      await expect(provider.workItemWriter.addComment('1', 'b')).rejects.toThrow('rate limited');
      await provider.workItemWriter.addComment('1', 'c');
      expect(provider.control.workItemComments('1')).toEqual(['c']);
      expect(provider.control.calls('addComment').map((call) => call.error)).toEqual([
        'rate limited',
        'rate limited',
        null,
      ]);
    });

    it('throws the given Error instance and queues failures in order', async () => {
      const provider = seeded();
      const boom = new Error('boom');
      provider.control.failNext('listRevisions', { error: boom });
      provider.control.failNext('listRevisions', { error: 'second' });
      await expect(provider.revisionReader.listRevisions()).rejects.toBe(boom);
      await expect(provider.revisionReader.listRevisions()).rejects.toThrow('second');
      await expect(provider.revisionReader.listRevisions()).resolves.toHaveLength(1);
    });

    it('only affects the named method', async () => {
      const provider = seeded();
      provider.control.failNext('listWorkItems');
      await expect(provider.workItemReader.getWorkItem('1')).resolves.not.toBeNull();
      await expect(provider.workItemReader.listWorkItems()).rejects.toThrow();
    });

    it('fails every call with times Infinity until clearFailures', async () => {
      const provider = seeded();
      provider.control.failNext('listSpecs', { times: Number.POSITIVE_INFINITY });
      for (let i = 0; i < 5; i++) await expect(provider.specReader.listSpecs()).rejects.toThrow();
      provider.control.clearFailures();
      await expect(provider.specReader.listSpecs()).resolves.toEqual({ specs: [], problems: [] });
    });

    it('rejects a non-positive count', () => {
      const provider = seeded();
      expect(() => provider.control.failNext('listSpecs', { times: 0 })).toThrow('times must be positive');
    });

    it('a failed createFromPatch writes nothing', async () => {
      const provider = seeded();
      provider.control.failNext('createFromPatch');
      await expect(CALLS.createFromPatch(provider)).rejects.toThrow();
      expect(provider.control.revisionRecord('2').patches).toEqual([PATCH]);
    });
  });

  it('the outside-world control bypasses injected failures', async () => {
    const provider = seeded();
    provider.control.failNext('createWorkItem');
    expect(provider.control.addWorkItem({ title: 'human' }).id).toBe('3');
    await expect(CALLS.createWorkItem(provider)).rejects.toThrow();
  });
});
