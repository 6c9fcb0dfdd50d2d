import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../test/support/cli/with-local-provider.ts';
import { createGitHubQueueFixture } from '../../test/support/github/create-github-queue-fixture.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { type CliContext, openCliContext } from '../cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../cli/support/require-local-tracker.ts';
import { buildAddFilePatch } from '../runtimes/scripted/build-scripted-results.ts';
import { createApiApp } from './create-api-app.ts';
import { createEventHub } from './create-event-hub.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { registerMergeQueueRoute } from './register-merge-queue-route.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';

/**
 * `GET /api/merge-queue` answers what `flotilla queue --json` prints, from the same core: approved items in
 * merge order, the head (checks still running on it) and what blocks it, an entry held back by a blocker.
 */

let repo: TempGitRepo;
let context: CliContext;
let server: RunningApiServer;
const ids = { head: '', held: '', blocker: '', next: '', headRevision: '', headSHA: '' };

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  await withLocalProvider(repo.root, { checksCommand: null }, async (provider) => {
    const approved = (file: string) =>
      createItemWithRevision(provider, buildAddFilePatch(file, 'x\n'), 'approved');
    const head = await approved('src/head.ts');
    Object.assign(ids, { head: head.id, headRevision: head.revisionID, headSHA: head.headSHA });
    provider.tracker.revisions.setPipeline(head.revisionID, head.headSHA, { status: 'pending' });
    ids.held = (await approved('src/held.ts')).id;
    ids.next = (await approved('src/next.ts')).id;
    ids.blocker = provider.tracker.workItems.createWorkItem({
      title: 'The blocker',
      body: '',
      labels: [],
      blockedBy: [],
    }).id;
    provider.tracker.workItems.setBlockedBy(ids.held, [ids.blocker]);
  });
  context = await openCliContext(repo.root);
  const app = createApiApp({
    config: context.config,
    tracker: await requireLocalTracker(context, 'serve'),
    provider: await context.provider.open(),
    history: context.history,
    paths: context.paths,
    events: createEventHub(),
    readAuthor: async () => 'Ada',
    repoRoot: repo.root,
  });
  server = await startApiServer(app, parseListenAddress('127.0.0.1:0'), { tokenSet: false });
});

afterAll(async () => {
  await server?.close();
  await context?.close();
  await repo?.cleanup();
});

describe('GET /api/merge-queue', () => {
  it('lists the queue in merge order with the head, what blocks it, and the held entries', async () => {
    const response = await fetch(`${server.url}/api/merge-queue`);
    expect(response.status).toBe(200);
    const queue = (await response.json()) as {
      automatic: boolean;
      entries: { position: number; workItemID: string; pipeline: string | null; waitingFor: string[] }[];
      head: unknown;
      held: unknown;
    };
    expect(queue.automatic).toBe(false);
    expect(queue.entries.map((entry) => [entry.position, entry.workItemID, entry.waitingFor])).toEqual([
      [1, ids.head, []],
      [2, ids.held, [ids.blocker]],
      [3, ids.next, []],
    ]);
    expect(queue.entries[0]?.pipeline).toBe('pending');
    expect(queue.head).toEqual({
      workItemID: ids.head,
      revisionID: ids.headRevision,
      state: 'checks-pending',
      blockedBy: `checks running on ${ids.headSHA.slice(0, 12)}`,
    });
    expect(queue.held).toEqual([{ workItemID: ids.held, reason: `waits for #${ids.blocker} to merge` }]);
  });
});

describe("GET /api/merge-queue with GitHub's merge queue", () => {
  it("shows each entry's place and state in GitHub's queue, and the head waiting on GitHub", async () => {
    const fixture = await createGitHubQueueFixture();
    try {
      const { provider } = fixture;
      const items = await fixture.approved(2);
      for (const item of items) {
        const step = await provider.revisionWriter.updateRevisionBranch?.(item.revisionID, item.headSHA);
        expect(step?.outcome).toBe('enqueued');
      }
      const app = new OpenAPIHono();
      registerMergeQueueRoute(app, { provider, automatic: true });
      const response = await app.request('/api/merge-queue');
      expect(response.status).toBe(200);
      const queue = (await response.json()) as {
        entries: { workItemID: string; trackerQueue: { position: number; state: string } | null }[];
        head: { workItemID: string; state: string; blockedBy: string } | null;
      };
      expect(
        queue.entries.map((entry) => [
          entry.workItemID,
          entry.trackerQueue?.position,
          entry.trackerQueue?.state,
        ]),
      ).toEqual([
        [items[0]?.id, 1, 'AWAITING_CHECKS'],
        [items[1]?.id, 2, 'QUEUED'],
      ]);
      expect(queue.head).toMatchObject({ workItemID: items[0]?.id, state: 'tracker-queue' });
      expect(queue.head?.blockedBy).toMatch(
        /^in GitHub's merge queue at position 1 \(first\): AWAITING_CHECKS/,
      );
    } finally {
      await fixture.cleanup();
    }
  }, 90_000);
});
