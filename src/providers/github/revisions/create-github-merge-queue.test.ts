import { afterEach, describe, expect, it } from 'vitest';
import {
  createGitHubTestProvider,
  TEST_TOKEN,
} from '../../../../test/support/github/create-github-test-provider.ts';
import {
  buildContractAddPatch,
  CONTRACT_BASE_FILES,
} from '../../../../test/support/provider-contract/provider-contract-suite.ts';
import type { FakeGitHubOptions } from '../../../demo/fake-github/create-fake-github.ts';

/**
 * The merge queue's GitHub side (issue #30 §5) against the fake, which keeps GitHub's documented rules
 * (docs/github-merge-queue.md): update-branch, a merge with the head that passed, GitHub's own merge queue.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(fake: Omit<FakeGitHubOptions, 'token'> = {}) {
  const test = await createGitHubTestProvider({ baseFiles: CONTRACT_BASE_FILES, ...fake });
  cleanups.push(test.cleanup);
  const { provider, github } = test;
  /** An approved item whose pull request adds `path`. */
  const approved = async (title: string, path: string) => {
    const item = await provider.workItemWriter.createWorkItem({ title, body: '', labels: [], blockedBy: [] });
    const revision = await provider.revisionWriter.createFromPatch({
      workItemID: item.id,
      patch: buildContractAddPatch(path, `export const x = '${title}';\n`),
      branchName: `flotilla/${item.id}`,
      title,
      body: 'The change.',
    });
    await provider.workItemWriter.transitionStatus(item.id, 'approved');
    return { item, revision };
  };
  /** REST requests that cost a point from now on, and GraphQL ones. */
  const meter = () => {
    const from = github.requests.length;
    return () => {
      const spent = github.requests.slice(from).filter((request) => request.counted);
      return {
        rest: spent.filter((request) => request.resource === 'core').length,
        graphql: spent.filter((request) => request.resource === 'graphql').length,
        all: github.requests.length - from,
      };
    };
  };
  const update = (id: string, head: string) => {
    const updateRevisionBranch = provider.revisionWriter.updateRevisionBranch;
    if (updateRevisionBranch === undefined)
      throw new Error('the GitHub provider has no updateRevisionBranch');
    return updateRevisionBranch(id, head);
  };
  return { ...test, approved, meter, update };
}

const ENQUEUE = `mutation flotillaEnqueuePullRequest($pullRequestId: ID!, $expectedHeadOid: GitObjectID) {
  enqueuePullRequest(input: { pullRequestId: $pullRequestId, expectedHeadOid: $expectedHeadOid }) { mergeQueueEntry { state } }
}`;

// Each case runs a few dozen git processes (the fake's repository, the mirrors): slow on a loaded machine.
const GIT_HEAVY_MS = 90_000;

describe('the merge queue on GitHub', () => {
  it(
    'updates a branch behind the default branch through the API, then merges exactly the head that passed',
    async () => {
      const { github, provider, approved, meter, update } = await setup({
        ci: 'passing',
        ciSettlesAtOnce: true,
      });
      const { item, revision } = await approved('one', 'src/one.ts');
      const base = await github.human.commitFiles({ 'NEWS.md': 'news\n' }, 'Main moves on');
      // What the engine's steps cost: the update, the step that finds it up to date with green checks, the merge.
      const costs: Record<string, ReturnType<ReturnType<typeof meter>>> = {};
      let spent = meter();
      const rebased = await update(revision.id, revision.headSHA);
      costs.update = spent();
      if (rebased.outcome !== 'rebased') throw new Error(`expected rebased, got ${rebased.outcome}`);
      expect(rebased.changedApproved).toBe(false);
      const head = rebased.revision.headSHA;
      expect(head).not.toBe(revision.headSHA);
      expect(await github.git.isAncestor(base, head)).toBe(true);
      spent = meter();
      const again = await update(revision.id, head);
      costs.upToDate = spent();
      // The stale head is refused, nothing written.
      await expect(update(revision.id, revision.headSHA)).rejects.toThrow(/not .*nothing was updated/);
      expect([again.outcome, again.outcome === 'up-to-date' && again.revision.pipeline?.status]).toEqual([
        'up-to-date',
        'success',
      ]);
      // A merge with the head before the update: GitHub's 409, nothing merged.
      await expect(
        provider.revisionWriter.mergeRevision?.(revision.id, { expectedHeadSHA: revision.headSHA }),
      ).rejects.toThrow(/Head branch was modified/);
      spent = meter();
      const merged = await provider.revisionWriter.mergeRevision?.(revision.id, {
        expectedHeadSHA: head,
        fastForwardOnly: true,
      });
      costs.merge = spent();
      expect(merged?.workItem.status).toBe('closed');
      expect(
        await github.git.isAncestor(head, (await github.git.resolveCommit('refs/heads/main')) ?? ''),
      ).toBe(true);
      const points = Object.values(costs).reduce((sum, cost) => sum + cost.rest, 0);
      expect(points).toBeLessThanOrEqual(20);
      process.stdout.write(`merge queue (update-branch), one item: ${JSON.stringify(costs)}\n`);
      expect(item.id).toBe(merged?.workItem.id);
    },
    GIT_HEAVY_MS,
  );

  it(
    'a conflict with the default branch comes back with its files and hunks; nothing is written',
    async () => {
      const { github, approved, update } = await setup();
      const { revision } = await approved('clash', 'src/clash.ts');
      await github.human.commitFiles({ 'src/clash.ts': "export const x = 'theirs';\n" }, 'Same file on main');
      const result = await update(revision.id, revision.headSHA);
      if (result.outcome !== 'conflict') throw new Error(`expected conflict, got ${result.outcome}`);
      expect(result.files.map((file) => file.path)).toEqual(['src/clash.ts']);
      expect(result.files[0]?.hunks[0]).toMatch(
        /^<<<<<<< main\n[\s\S]*theirs[\s\S]*>>>>>>> flotilla\/\d+\n$/,
      );
      expect(await github.git.resolveCommit(`refs/heads/${revision.headRef}`)).toBe(revision.headSHA);
    },
    GIT_HEAVY_MS,
  );

  it(
    'a fast-forward-only merge is refused when the default branch moved after the checks passed',
    async () => {
      const { github, provider, approved } = await setup();
      const { revision } = await approved('late', 'src/late.ts');
      await github.human.commitFiles({ 'NEWS.md': 'later\n' }, 'Main moves on');
      await expect(
        provider.revisionWriter.mergeRevision?.(revision.id, {
          expectedHeadSHA: revision.headSHA,
          fastForwardOnly: true,
        }),
      ).rejects.toThrow(/not .* on top of main any more; nothing was merged/);
      expect((await provider.revisionReader.getRevision(revision.id))?.headSHA).toBe(revision.headSHA);
    },
    GIT_HEAVY_MS,
  );

  it(
    "hands the pull request to GitHub's merge queue where a ruleset requires it; the queue's merge closes the item",
    async () => {
      const { github, provider, approved, meter, update } = await setup({ mergeQueue: true, ci: 'passing' });
      const { item, revision } = await approved('queued', 'src/queued.ts');
      await github.human.commitFiles({ 'NEWS.md': 'news\n' }, 'Main moves on');
      const spent = meter();
      const result = await update(revision.id, revision.headSHA);
      const enqueueCost = spent();
      expect([result.outcome, result.outcome === 'enqueued' && result.revision.pipeline?.status]).toEqual([
        'enqueued',
        'pending',
      ]);
      // Asked again while queued: nothing more is written.
      const writes = github.requests.filter((request) => request.method !== 'GET').length;
      expect((await update(revision.id, revision.headSHA)).outcome).toBe('enqueued');
      expect(github.requests.filter((request) => request.method !== 'GET').length).toBe(writes + 1); // the query
      expect((await provider.revisionReader.listRevisions())[0]?.pipeline?.status).toBe('pending');
      while ((await provider.revisionReader.listRevisions()).length > 0) await github.settleChecks();
      expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('closed');
      process.stdout.write(`merge queue (GitHub's), enqueueing one item: ${JSON.stringify(enqueueCost)}\n`);
    },
    GIT_HEAVY_MS,
  );

  it(
    'a pull request someone else queues between our read and our enqueue is no error; the queue still merges it',
    async () => {
      const { github, provider, approved, update } = await setup({ mergeQueue: true, ci: 'passing' });
      const { item, revision } = await approved('raced', 'src/raced.ts');
      const pull = (await (
        await fetch(`${github.apiUrl}/repos/${github.owner}/${github.repo}/pulls/${revision.id}`, {
          headers: { authorization: `token ${TEST_TOKEN}` },
        })
      ).json()) as { node_id: string; head: { sha: string } };
      // The provider reads the queue (not queued), then adds the closing keyword to the body: a human
      // clicks "Merge when ready" in between, so our enqueue is refused as already queued.
      github.interleave({ method: 'PATCH', path: new RegExp(`/pulls/${revision.id}$`) }, async () => {
        const answer = await fetch(`${github.apiUrl}/graphql`, {
          method: 'POST',
          headers: { authorization: `token ${TEST_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            query: ENQUEUE,
            variables: { pullRequestId: pull.node_id, expectedHeadOid: pull.head.sha },
          }),
        });
        expect(((await answer.json()) as { errors?: unknown }).errors).toBeUndefined();
      });
      expect((await update(revision.id, revision.headSHA)).outcome).toBe('enqueued');
      while ((await provider.revisionReader.listRevisions()).length > 0) await github.settleChecks();
      expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('closed');
    },
    GIT_HEAVY_MS,
  );

  it(
    "a pull request GitHub's merge queue removes shows red checks with GitHub's reason",
    async () => {
      const { github, provider, approved, update } = await setup({ mergeQueue: true, ci: 'passing' });
      const { revision } = await approved('removed', 'src/removed.ts');
      expect((await update(revision.id, revision.headSHA)).outcome).toBe('enqueued');
      // Main gets the same file before the queue builds the merge group: a conflict there.
      await github.human.commitFiles({ 'src/removed.ts': "export const x = 'main';\n" }, 'Same file');
      const [listed] = await provider.revisionReader.listRevisions();
      expect(listed?.pipeline).toEqual({
        status: 'failure',
        url: null,
        reason: "removed from GitHub's merge queue: merge conflict with the base branch",
      });
    },
    GIT_HEAVY_MS,
  );
});
