import { describe, expect, it } from 'vitest';
import type { CreateWorkItemInput } from '../../../src/domain/index.ts';
import { hashText } from '../../../src/shared/hash-text.ts';
import { createInMemoryProvider } from './create-in-memory-provider.ts';

const T0 = Date.parse('2024-05-01T10:00:00.000Z');

function setup() {
  let clock = T0;
  const provider = createInMemoryProvider({ now: () => clock });
  return {
    provider,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

function input(overrides: Partial<CreateWorkItemInput> = {}): CreateWorkItemInput {
  return { title: 'Add login', body: 'Objective: …', labels: [], blockedBy: [], ...overrides };
}

describe('in-memory work items: createWorkItem', () => {
  it('assigns sequential string ids and defaults to a pending task', async () => {
    const { provider } = setup();
    const first = await provider.workItemWriter.createWorkItem(input());
    const second = await provider.workItemWriter.createWorkItem(input({ title: 'Second' }));
    expect(first).toEqual({
      id: '1',
      title: 'Add login',
      status: 'pending',
      kind: 'task',
      priority: null,
      complexity: null,
      blockedBy: [],
      bodyHash: hashText('Objective: …'),
      createdAt: '2024-05-01T10:00:00.000Z',
      linkedRevision: null,
    });
    expect(second.id).toBe('2');
  });

  it('parses status, kind, priority and complexity labels and stores blockedBy', async () => {
    const { provider } = setup();
    const task = await provider.workItemWriter.createWorkItem(
      input({
        labels: ['status:ready', 'priority:high', 'complexity:low', 'area:auth'],
        blockedBy: ['7', '9'],
      }),
    );
    expect(task).toMatchObject({
      status: 'ready',
      kind: 'task',
      priority: 'high',
      complexity: 'low',
      blockedBy: ['7', '9'],
    });
    expect(provider.control.workItemRecord(task.id).labels).toEqual([
      'task:implement',
      'status:ready',
      'priority:high',
      'complexity:low',
      'area:auth',
    ]);

    const refinement = await provider.workItemWriter.createWorkItem(
      input({ labels: ['task:refinement', 'priority:medium', 'complexity:high'] }),
    );
    expect(refinement).toMatchObject({ kind: 'refinement', priority: 'medium', complexity: null });
    expect(provider.control.workItemRecord(refinement.id).labels).not.toContain('task:implement');
  });

  it('takes createdAt from the injected clock', async () => {
    const { provider, advance } = setup();
    await provider.workItemWriter.createWorkItem(input());
    advance(60_000);
    const later = await provider.workItemWriter.createWorkItem(input());
    expect(later.createdAt).toBe('2024-05-01T10:01:00.000Z');
  });

  it('does not keep references to the caller’s input', async () => {
    const { provider } = setup();
    const request = input({ labels: ['priority:low'], blockedBy: ['3'] });
    const created = await provider.workItemWriter.createWorkItem(request);
    request.labels.push('priority:high');
    request.blockedBy.push('4');
    created.blockedBy.push('5');
    expect(await provider.workItemReader.getWorkItem(created.id)).toMatchObject({
      priority: 'low',
      blockedBy: ['3'],
    });
  });
});

describe('in-memory work items: readers', () => {
  it('lists every non-closed item, refinements included', async () => {
    const { provider } = setup();
    const open = await provider.workItemWriter.createWorkItem(input());
    const refinement = await provider.workItemWriter.createWorkItem(input({ labels: ['task:refinement'] }));
    const closed = await provider.workItemWriter.createWorkItem(input());
    await provider.workItemWriter.transitionStatus(closed.id, 'closed');
    const ids = (await provider.workItemReader.listWorkItems()).map((item) => item.id);
    expect(ids).toEqual([open.id, refinement.id]);
  });

  it('getWorkItem returns closed items too, and null for unknown ids', async () => {
    const { provider } = setup();
    const item = await provider.workItemWriter.createWorkItem(input());
    await provider.workItemWriter.transitionStatus(item.id, 'closed');
    expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
      id: item.id,
      status: 'closed',
    });
    expect(await provider.workItemReader.getWorkItem('404')).toBeNull();
  });

  it('getWorkItemBody returns the body (closed items included) and throws for unknown ids', async () => {
    const { provider } = setup();
    const item = await provider.workItemWriter.createWorkItem(input({ body: 'Do the thing' }));
    await provider.workItemWriter.transitionStatus(item.id, 'closed');
    expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('Do the thing');
    await expect(provider.workItemReader.getWorkItemBody('404')).rejects.toThrow(
      'work item 404 does not exist',
    );
  });

  it('returns deep copies: mutating a result never changes what is stored', async () => {
    const { provider } = setup();
    await provider.workItemWriter.createWorkItem(input({ blockedBy: ['1'] }));
    const [listed] = await provider.workItemReader.listWorkItems();
    if (!listed) throw new Error('expected an item');
    listed.status = 'approved';
    listed.blockedBy.push('99');
    listed.title = 'changed';
    const fetched = await provider.workItemReader.getWorkItem(listed.id);
    if (!fetched) throw new Error('expected an item');
    fetched.blockedBy.length = 0;
    expect(await provider.workItemReader.getWorkItem(listed.id)).toMatchObject({
      status: 'pending',
      blockedBy: ['1'],
      title: 'Add login',
    });
  });

  it('derives linkedRevision from the lowest-numbered open revision for the item', async () => {
    const { provider } = setup();
    const item = await provider.workItemWriter.createWorkItem(input());
    expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBeNull();
    const first = provider.control.addRevision({ branchName: 'a', workItemID: item.id });
    const second = provider.control.addRevision({ branchName: 'b', workItemID: item.id });
    expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBe(first.id);
    provider.control.closeRevision(first.id);
    expect((await provider.workItemReader.listWorkItems())[0]?.linkedRevision).toBe(second.id);
  });
});

describe('in-memory work items: writers', () => {
  it('transitionStatus replaces the status label; closed closes and another status reopens', async () => {
    const { provider } = setup();
    const item = await provider.workItemWriter.createWorkItem(input({ labels: ['status:pending', 'x'] }));
    await provider.workItemWriter.transitionStatus(item.id, 'in-progress');
    expect(provider.control.workItemRecord(item.id).labels).toEqual([
      'task:implement',
      'x',
      'status:in-progress',
    ]);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('in-progress');

    await provider.workItemWriter.transitionStatus(item.id, 'closed');
    expect(provider.control.workItemRecord(item.id).state).toBe('closed');
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);

    await provider.workItemWriter.transitionStatus(item.id, 'pending');
    expect(provider.control.workItemRecord(item.id).state).toBe('open');
    expect((await provider.workItemReader.listWorkItems()).map((listed) => listed.status)).toEqual([
      'pending',
    ]);
  });

  it('transitionStatus throws for an unknown id', async () => {
    const { provider } = setup();
    await expect(provider.workItemWriter.transitionStatus('12', 'ready')).rejects.toThrow('work item 12');
  });

  it('updateWorkItem: null leaves fields unchanged', async () => {
    const { provider } = setup();
    const item = await provider.workItemWriter.createWorkItem(
      input({ body: 'old', labels: ['priority:low'] }),
    );
    await provider.workItemWriter.updateWorkItem(item.id, { body: null, labels: null });
    expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('old');
    expect(provider.control.workItemRecord(item.id).labels).toEqual(['task:implement', 'priority:low']);

    await provider.workItemWriter.updateWorkItem(item.id, { body: 'new', labels: null });
    expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('new');
    expect((await provider.workItemReader.getWorkItem(item.id))?.priority).toBe('low');
  });

  it('updateWorkItem labels update priority and complexity, keep the status, and keep the kind unless given', async () => {
    const { provider } = setup();
    const item = await provider.workItemWriter.createWorkItem(
      input({ labels: ['status:ready', 'priority:low', 'complexity:high', 'old'] }),
    );
    await provider.workItemWriter.updateWorkItem(item.id, {
      body: null,
      labels: ['priority:high', 'status:closed', 'new'],
    });
    expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
      status: 'ready',
      kind: 'task',
      priority: 'high',
      complexity: null,
    });
    expect(provider.control.workItemRecord(item.id).labels).toEqual([
      'task:implement',
      'status:ready',
      'priority:high',
      'new',
    ]);

    await provider.workItemWriter.updateWorkItem(item.id, { body: null, labels: ['task:refinement'] });
    expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
      kind: 'refinement',
      priority: null,
      status: 'ready',
    });
    expect(provider.control.workItemRecord(item.id).labels).toEqual(['status:ready', 'task:refinement']);
  });

  it('updateWorkItem throws for an unknown id and writes nothing', async () => {
    const { provider } = setup();
    await expect(provider.workItemWriter.updateWorkItem('8', { body: 'x', labels: null })).rejects.toThrow(
      'work item 8',
    );
    expect(provider.control.workItemRecords()).toEqual([]);
  });

  it('addComment keeps comments per item, readable via control; unknown ids throw', async () => {
    const { provider } = setup();
    const a = await provider.workItemWriter.createWorkItem(input());
    const b = await provider.workItemWriter.createWorkItem(input());
    await provider.workItemWriter.addComment(a.id, 'first');
    await provider.workItemWriter.addComment(b.id, 'other');
    await provider.workItemWriter.addComment(a.id, 'second');
    expect(provider.control.workItemComments(a.id)).toEqual(['first', 'second']);
    expect(provider.control.workItemComments(b.id)).toEqual(['other']);
    await expect(provider.workItemWriter.addComment('77', 'x')).rejects.toThrow('work item 77');
  });
});

describe('in-memory work items: human control', () => {
  it('addWorkItem creates an item with the given labels, status and blockers, outside the call log', async () => {
    const { provider } = setup();
    const added = provider.control.addWorkItem({
      title: 'Human task',
      body: 'by hand',
      labels: ['priority:medium'],
      status: 'blocked',
      blockedBy: ['3'],
      createdAt: '2020-01-01T00:00:00.000Z',
    });
    expect(added).toMatchObject({
      id: '1',
      status: 'blocked',
      kind: 'task',
      priority: 'medium',
      blockedBy: ['3'],
      createdAt: '2020-01-01T00:00:00.000Z',
    });
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('by hand');
    expect(provider.control.calls('createWorkItem')).toEqual([]);
  });

  it('addWorkItem defaults: empty body, no labels (pending), clock createdAt; status closed closes it', async () => {
    const { provider } = setup();
    const plain = provider.control.addWorkItem({ title: 'Plain' });
    expect(plain).toMatchObject({ status: 'pending', createdAt: '2024-05-01T10:00:00.000Z', blockedBy: [] });
    expect(await provider.workItemReader.getWorkItemBody(plain.id)).toBe('');
    const closed = provider.control.addWorkItem({ title: 'Done', status: 'closed' });
    expect(closed.status).toBe('closed');
    expect((await provider.workItemReader.listWorkItems()).map((item) => item.id)).toEqual([plain.id]);
  });

  it('editWorkItem changes title, body, labels, blockers and status', async () => {
    const { provider } = setup();
    const item = provider.control.addWorkItem({ title: 'T', labels: ['status:ready'] });
    const edited = provider.control.editWorkItem(item.id, {
      title: 'T2',
      body: 'B2',
      labels: ['task:refinement', 'status:pending'],
      blockedBy: ['4'],
    });
    expect(edited).toMatchObject({ title: 'T2', kind: 'refinement', status: 'pending', blockedBy: ['4'] });
    expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('B2');

    expect(provider.control.editWorkItem(item.id, { status: 'closed' }).status).toBe('closed');
    expect(provider.control.editWorkItem(item.id, { status: 'needs-refinement' }).status).toBe(
      'needs-refinement',
    );
    expect(() => provider.control.editWorkItem('99', { title: 'x' })).toThrow('work item 99');
  });

  it('closeWorkItem closes like a human (labels untouched); reopenWorkItem restores the labelled status', async () => {
    const { provider } = setup();
    const item = provider.control.addWorkItem({ title: 'T', status: 'approved' });
    provider.control.closeWorkItem(item.id);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('closed');
    expect(provider.control.workItemRecord(item.id).labels).toEqual(['status:approved']);
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);
    provider.control.reopenWorkItem(item.id);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('approved');
    expect(() => provider.control.closeWorkItem('50')).toThrow('work item 50');
    expect(() => provider.control.reopenWorkItem('50')).toThrow('work item 50');
  });

  it('deleteWorkItem removes the item entirely', async () => {
    const { provider } = setup();
    const item = provider.control.addWorkItem({ title: 'T' });
    provider.control.deleteWorkItem(item.id);
    expect(await provider.workItemReader.getWorkItem(item.id)).toBeNull();
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);
    expect(() => provider.control.deleteWorkItem(item.id)).toThrow(`work item ${item.id}`);
  });

  it('addWorkItem and editWorkItem return copies', async () => {
    const { provider } = setup();
    const added = provider.control.addWorkItem({ title: 'T', blockedBy: ['2'] });
    added.blockedBy.push('mutated');
    provider.control.editWorkItem(added.id, { title: 'T2' }).blockedBy.push('mutated');
    expect((await provider.workItemReader.getWorkItem(added.id))?.blockedBy).toEqual(['2']);
  });

  it('toWorkItem, workItemRecord(s) and workItemComments return copies', async () => {
    const { provider } = setup();
    const item = provider.control.addWorkItem({ title: 'T', labels: ['a'] });
    await provider.workItemWriter.addComment(item.id, 'c');
    provider.control.workItemRecord(item.id).labels.push('mutated');
    provider.control.workItemRecords()[0]?.comments.push('mutated');
    provider.control.workItemComments(item.id).push('mutated');
    provider.control.toWorkItem(item.id).blockedBy.push('mutated');
    expect(provider.control.workItemRecord(item.id)).toMatchObject({ labels: ['a'], comments: ['c'] });
    expect(provider.control.toWorkItem(item.id).blockedBy).toEqual([]);
    expect(() => provider.control.toWorkItem('404')).toThrow('work item 404');
  });
});
