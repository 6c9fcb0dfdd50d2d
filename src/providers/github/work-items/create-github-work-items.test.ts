import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubTestProvider } from '../../../../test/support/github/create-github-test-provider.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(options: Parameters<typeof createGitHubTestProvider>[0] = {}) {
  const fixture = await createGitHubTestProvider(options);
  cleanups.push(fixture.cleanup);
  return fixture;
}

const issueWrites = (github: { requests: { method: string; path: string }[] }, from: number) =>
  github.requests
    .slice(from)
    .filter((request) => request.method !== 'GET' && request.path.includes('/issues'));

describe('GitHub work items', () => {
  it('a re-run after a crash between "issue created" and "recorded" finds the issue, not a duplicate', async () => {
    const { github, provider } = await setup();
    const input = { title: 'Add login', body: 'Objective', labels: ['priority:high'], blockedBy: [] };
    const first = await provider.workItemWriter.createWorkItem(input);
    // The engine never recorded `first` (killed): the planner's result is applied again.
    const again = await provider.workItemWriter.createWorkItem(input);
    expect(again).toEqual(first);
    expect((await provider.workItemReader.listWorkItems()).map((item) => item.id)).toEqual([first.id]);
    expect(await provider.workItemReader.getWorkItemBody(first.id)).toBe('Objective');
    // A different request is a different issue.
    const other = await provider.workItemWriter.createWorkItem({ ...input, body: 'Other objective' });
    expect(other.id).not.toBe(first.id);
    // The key survives a body update, so a late re-run still finds the issue.
    await provider.workItemWriter.updateWorkItem(first.id, { body: 'Rewritten', labels: null });
    expect(await provider.workItemReader.getWorkItemBody(first.id)).toBe('Rewritten');
    expect((await provider.workItemWriter.createWorkItem(input)).id).toBe(first.id);
    expect(github.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
  });

  it('lists an issue a human filed with only task:investigate or task:refine, in that mode (issue #29)', async () => {
    const { github, provider } = await setup();
    const bug = github.human.createIssue({ title: 'greet() crashes', labels: ['task:investigate'] });
    const vague = github.human.createIssue({ title: 'Say goodbye', labels: ['task:refine', 'priority:low'] });
    github.human.createIssue({ title: 'Not a work item', labels: ['question'] });
    const items = await provider.workItemReader.listWorkItems();
    expect(items.map((item) => [item.id, item.kind, item.mode])).toEqual([
      [String(bug), 'task', 'investigate'],
      [String(vague), 'task', 'refine'],
    ]);
  });

  it('a status change keeps a label a human added between the read and the write', async () => {
    const { github, provider } = await setup();
    const item = await provider.workItemWriter.createWorkItem({
      title: 'a',
      body: '',
      labels: ['status:ready'],
      blockedBy: [],
    });
    github.interleave({ method: 'DELETE' }, () => {
      github.human.setIssueLabels(Number(item.id), [...github.human.issueLabels(Number(item.id)), 'urgent']);
    });
    const mark = github.requests.length;
    await provider.workItemWriter.transitionStatus(item.id, 'in-progress');
    expect(github.human.issueLabels(Number(item.id)).sort()).toEqual([
      'status:in-progress',
      'task:implement',
      'urgent',
    ]);
    // One removal and one addition; no PATCH of the whole set.
    expect(issueWrites(github, mark).map((request) => request.method)).toEqual(['DELETE', 'POST']);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('in-progress');
  });

  it('a label update respects a label a human removed meanwhile, and closing keeps hand-made labels', async () => {
    const { github, provider } = await setup();
    const item = await provider.workItemWriter.createWorkItem({
      title: 'a',
      body: '',
      labels: ['area:api', 'keep-me'],
      blockedBy: [],
    });
    github.interleave({ method: 'POST', path: /\/labels$/ }, () => {
      github.human.setIssueLabels(
        Number(item.id),
        github.human.issueLabels(Number(item.id)).filter((label) => label !== 'keep-me'),
      );
    });
    // The engine asks for area:web instead of area:api (keep-me unchanged by it).
    await provider.workItemWriter.updateWorkItem(item.id, { body: null, labels: ['area:web', 'keep-me'] });
    expect(github.human.issueLabels(Number(item.id)).sort()).toEqual(['area:web', 'task:implement']);

    github.human.setIssueLabels(Number(item.id), [...github.human.issueLabels(Number(item.id)), 'by-hand']);
    await provider.workItemWriter.transitionStatus(item.id, 'closed');
    expect(github.human.issueLabels(Number(item.id)).sort()).toEqual([
      'area:web',
      'by-hand',
      'status:closed',
      'task:implement',
    ]);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('closed');
  });

  it('writes blockers as native issue dependencies and reads those a human set', async () => {
    const { github, provider } = await setup();
    const blocker = await provider.workItemWriter.createWorkItem({
      title: 'schema',
      body: '',
      labels: [],
      blockedBy: [],
    });
    const blocked = await provider.workItemWriter.createWorkItem({
      title: 'api',
      body: 'uses the schema',
      labels: [],
      blockedBy: [blocker.id],
    });
    expect(blocked.blockedBy).toEqual([blocker.id]);
    const nativeRequest = github.requests.find(
      (request) =>
        request.method === 'POST' && request.path.endsWith(`/issues/${blocked.id}/dependencies/blocked_by`),
    );
    expect(nativeRequest?.status).toBe(201);

    // Set on github.com only (no body metadata): still a blocker.
    const third = await provider.workItemWriter.createWorkItem({
      title: 'ui',
      body: '',
      labels: [],
      blockedBy: [],
    });
    github.human.setBlockedBy(Number(third.id), [Number(blocked.id)]);
    const items = await provider.workItemReader.listWorkItems();
    expect(items.map((item) => [item.id, item.blockedBy])).toEqual([
      [blocker.id, []],
      [blocked.id, [blocker.id]],
      [third.id, [blocked.id]],
    ]);
    expect((await provider.workItemReader.getWorkItem(third.id))?.blockedBy).toEqual([blocked.id]);
  });

  it('falls back to the body metadata where the repository has no issue dependencies (404, asked once)', async () => {
    const { github, provider } = await setup({ issueDependencies: false });
    const blocker = await provider.workItemWriter.createWorkItem({
      title: 'a',
      body: '',
      labels: [],
      blockedBy: [],
    });
    for (const title of ['b', 'c']) {
      await provider.workItemWriter.createWorkItem({ title, body: '', labels: [], blockedBy: [blocker.id] });
    }
    const items = await provider.workItemReader.listWorkItems();
    expect(items.map((item) => item.blockedBy)).toEqual([[], [blocker.id], [blocker.id]]);
    const dependencyRequests = github.requests.filter((request) => request.path.includes('/dependencies/'));
    expect(dependencyRequests.map((request) => request.status)).toEqual([404]);
  });
});
