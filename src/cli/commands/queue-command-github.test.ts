import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubQueueFixture } from '../../../test/support/github/create-github-queue-fixture.ts';
import { TEST_TOKEN } from '../../../test/support/github/create-github-test-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

/**
 * `flotilla merge --queue` and `flotilla queue` where GitHub's own merge queue is required (issue #30 §5),
 * against the fake GitHub (docs/github-merge-queue.md): every approved green pull request is handed to
 * GitHub's queue in one pass, and the queue shows each one's place and state there as GitHub gives them.
 */

let repo: TempGitRepo;
let fixture: Awaited<ReturnType<typeof createGitHubQueueFixture>>;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const ok = async (...args: string[]) => {
  const result = await flotilla(...args);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return result.stdout;
};

beforeEach(async () => {
  fixture = await createGitHubQueueFixture();
  const { github } = fixture;
  repo = await createTempGitRepo();
  const config = {
    provider: 'github',
    github: { owner: github.owner, repo: github.repo, apiUrl: github.apiUrl, gitUrl: github.gitUrl },
  };
  await repo.commit('initial', {
    'README.md': '# sample\n',
    '.gitignore': '.flotilla/\n',
    'flotilla.config.json': `${JSON.stringify(config, null, 2)}\n`,
  });
  process.env.FLOTILLA_GITHUB_TOKEN = TEST_TOKEN;
});
afterEach(async () => {
  delete process.env.FLOTILLA_GITHUB_TOKEN;
  await repo.cleanup();
  await fixture.cleanup();
});

describe("flotilla merge --queue and flotilla queue with GitHub's merge queue", { timeout: 120_000 }, () => {
  it("hands every approved green item to GitHub's queue in one pass, then shows each one's place there", async () => {
    const items = await fixture.approved(3);
    const ids = items.map((item) => item.id);

    const from = fixture.github.requests.length;
    const merged = JSON.parse(await ok('merge', '--queue', '--json'));
    const spent = fixture.github.requests.slice(from).filter((request) => request.counted);
    const rest = spent.filter((request) => request.resource === 'core').length;
    process.stdout.write(
      `merge --queue, three items to GitHub's queue: ${rest} REST points, ${spent.length - rest} GraphQL requests\n`,
    );
    expect(
      merged.steps.map((step: { workItemID: string; outcome: string }) => [step.workItemID, step.outcome]),
    ).toEqual(ids.map((id) => [id, 'enqueued']));
    // All three are in GitHub's queue before any of them merged: one pass, not one at a time.
    expect(fixture.github.mergeQueue()).toEqual(items.map((item) => Number(item.revisionID)));

    const queue = JSON.parse(await ok('queue', '--json'));
    expect(
      queue.entries.map((entry: { workItemID: string; pipeline: string; trackerQueue: unknown }) => [
        entry.workItemID,
        entry.pipeline,
        entry.trackerQueue,
      ]),
    ).toEqual([
      [ids[0], 'pending', expect.objectContaining({ position: 1, state: 'AWAITING_CHECKS' })],
      [ids[1], 'pending', expect.objectContaining({ position: 2, state: 'QUEUED' })],
      [ids[2], 'pending', expect.objectContaining({ position: 3, state: 'QUEUED' })],
    ]);
    expect(queue.head).toEqual({
      workItemID: ids[0],
      revisionID: items[0]?.revisionID,
      state: 'tracker-queue',
      blockedBy:
        "in GitHub's merge queue at position 1 (first): AWAITING_CHECKS — waiting for its merge group's checks to pass",
    });
    expect(queue.held).toEqual([]);

    const text = await ok('queue');
    expect(text).toContain(
      `Head: #${ids[0]} — in GitHub's merge queue at position 1 (first): AWAITING_CHECKS — waiting for its merge group's checks to pass.`,
    );
    const rowOf = (id: string | undefined) => text.split('\n').find((line) => line.includes(`#${id} `)) ?? '';
    expect(rowOf(ids[1])).toContain(
      "in GitHub's merge queue at position 2 (1 ahead): QUEUED — queued, its merge group not started yet",
    );
    expect(rowOf(ids[2])).toContain("in GitHub's merge queue at position 3 (2 ahead): QUEUED");

    // A second pass hands nothing over again.
    expect(JSON.parse(await ok('merge', '--queue', '--json')).steps).toEqual([]);
    await fixture.settleAll();
    const done = JSON.parse(await ok('queue', '--json'));
    expect([done.entries, done.head]).toEqual([[], null]);
    for (const id of ids) {
      expect((await fixture.provider.workItemReader.getWorkItem(id))?.status).toBe('closed');
    }
  });
});
