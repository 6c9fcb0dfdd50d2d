import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAddFilePatch } from '../../src/runtimes/scripted/build-scripted-results.ts';
import type { SqliteTracker } from '../../src/storage/index.ts';
import { createItemWithRevision, withLocalProvider } from '../support/cli/with-local-provider.ts';
import { startWebDashboard, type WebDashboard } from '../support/web/start-web-dashboard.ts';

/**
 * The web dashboard's merge queue panel and line comments in a review, in a real headless Chromium against
 * `createApiApp` over a temp repository's tracker (as `flotilla serve`). The panel draws `GET
 * /api/merge-queue` (as `flotilla queue`). `+` on a line of the diff opens a box under it, the comment waits
 * there as a draft, and the verdict sends it with the review; the local provider stores it as the review's
 * line comment. Screenshots go to $FLOTILLA_ARTIFACTS_DIR/web-dashboard.
 */

let web: WebDashboard | undefined;
let shots: string;
let tracker: SqliteTracker;
let page: Page;
const ids = { rework: '', approve: '', head: '', held: '', blocker: '', next: '', headSHA: '' };
const FILE = 'src/rate-limit.ts';

beforeAll(async () => {
  web = await startWebDashboard(async ({ repo }) => {
    await withLocalProvider(repo.root, { checksCommand: null }, async (provider) => {
      const source = 'export const LIMIT = 100;\nexport const WINDOW_MS = 60_000;\nexport const BURST = 0;\n';
      ids.rework = (await createItemWithRevision(provider, buildAddFilePatch(FILE, source), 'review')).id;
      ids.approve = (
        await createItemWithRevision(
          provider,
          buildAddFilePatch('src/ok.ts', 'export const ok = true;\n'),
          'review',
        )
      ).id;
      // The merge queue: a head whose checks still run, an entry held back by a blocker, one behind the head.
      const approved = async (title: string, file: string) => {
        const made = await createItemWithRevision(provider, buildAddFilePatch(file, 'x\n'), 'approved');
        provider.tracker.workItems.setTitle(made.id, title);
        return made;
      };
      const head = await approved('Cache the rate limits', 'src/cache.ts');
      provider.tracker.revisions.setPipeline(head.revisionID, head.headSHA, { status: 'pending' });
      Object.assign(ids, { head: head.id, headSHA: head.headSHA });
      ids.held = (await approved('Per-key limits', 'src/per-key.ts')).id;
      ids.next = (await approved('Document the limits', 'docs/limits.md')).id;
      ids.blocker = provider.tracker.workItems.createWorkItem({
        title: 'Key store',
        body: '',
        labels: [],
        blockedBy: [],
      }).id;
      provider.tracker.workItems.setBlockedBy(ids.held, [ids.blocker]);
    });
  });
  ({ page, tracker, shots } = web);
}, 60_000);

afterAll(async () => {
  await web?.close();
});

/** Types into the line comment box once it has the focus (it takes it as it opens). */
async function typeLineComment(text: string) {
  await page.locator('[data-testid="line-comment-box"] textarea:focus').waitFor();
  await page.keyboard.type(text);
}

const reviewsOf = (id: string) =>
  tracker.revisions.listReviews(tracker.workItems.getWorkItem(id)?.linkedRevision ?? '');

const queueNotes = () =>
  page
    .getByTestId('merge-queue')
    .locator('li')
    .evaluateAll((nodes) =>
      nodes.map((node) => {
        const element = node as unknown as { getAttribute(name: string): string; textContent: string };
        return [element.getAttribute('data-queue-item'), element.getAttribute('class'), element.textContent];
      }),
    );

describe('the merge queue panel', { timeout: 60_000 }, () => {
  it('shows the queue in merge order, the head and what blocks it, a held entry and why', async () => {
    const panel = page.getByTestId('merge-queue');
    await panel.locator(`[data-queue-item="${ids.next}"]`).waitFor();
    expect(await queueNotes()).toEqual([
      [
        ids.head,
        'queue-head',
        `1.#${ids.head} Cache the rate limits head: checks running on ${ids.headSHA.slice(0, 12)}`,
      ],
      [ids.held, 'queue-held', `2.#${ids.held} Per-key limits waits for #${ids.blocker} to merge`],
      [ids.next, 'queue-waiting', `3.#${ids.next} Document the limits waits for the head`],
    ]);
    expect(await panel.textContent()).toContain('flotilla merge --queue');
    await page.screenshot({ path: join(shots, 'board-merge-queue.png') });
    await panel.getByRole('button', { name: `#${ids.held} Per-key limits` }).click();
    await page.getByTestId('detail').getByText(`waits for #${ids.blocker} (pending)`).waitFor();
    await page.keyboard.press('Escape');
  });
});

describe('line comments in a web review', { timeout: 60_000 }, () => {
  it('adds comments on lines of the diff and requests changes with them only', async () => {
    await page.locator(`[data-item="${ids.rework}"]`).dblclick();
    const diff = page.getByTestId('diff');
    await diff.getByText('+export const BURST = 0;').waitFor();
    // Only the new version's lines take a comment: the file header and hunk header have no button.
    expect(await diff.getByRole('button', { name: /^comment on / }).count()).toBe(3);
    const review = page.getByTestId('review');
    expect(await review.getByRole('button', { name: 'Request changes' }).isDisabled()).toBe(true);

    await diff.getByRole('button', { name: `comment on ${FILE}:3` }).click();
    const box = page.getByRole('textbox', { name: `Line comment on ${FILE}:3` });
    await box.waitFor();
    await typeLineComment('A burst of 0 blocks every first request.');
    await page.getByTestId('line-comment-box').getByRole('button', { name: 'Add comment' }).click();
    await diff.getByTestId('draft-comment').getByText('A burst of 0 blocks').waitFor();

    // A second one, then dropped: drafts stay editable until the verdict.
    await diff.getByRole('button', { name: `comment on ${FILE}:1` }).click();
    await typeLineComment('Too low?');
    await page.keyboard.press('Control+Enter');
    await diff.getByTestId('draft-comment').getByText('Too low?').waitFor();
    await diff
      .getByTestId('draft-comment')
      .filter({ hasText: 'Too low?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await diff.getByTestId('draft-comment').getByText('Too low?').waitFor({ state: 'detached' });

    await diff.getByRole('button', { name: `comment on ${FILE}:2` }).click();
    await typeLineComment('Name the unit: WINDOW_MS is fine, say so in a comment.');
    await page.getByTestId('line-comment-box').getByRole('button', { name: 'Add comment' }).click();
    await review.getByText(`2 line comments go with your verdict: ${FILE}:3, ${FILE}:2`).waitFor();
    await page.screenshot({ path: join(shots, 'item-line-comments.png') });

    await review.getByRole('button', { name: 'Request changes' }).click();
    await page.getByTestId('footer').getByText(`request changes #${ids.rework}: done`).waitFor();
    expect(tracker.workItems.getWorkItem(ids.rework)?.status).toBe('pending');
    expect(reviewsOf(ids.rework).map((entry) => [entry.author, entry.state, entry.comments])).toEqual([
      [
        'Ada',
        'CHANGES_REQUESTED',
        [
          expect.objectContaining({ path: FILE, line: 3, body: 'A burst of 0 blocks every first request.' }),
          expect.objectContaining({
            path: FILE,
            line: 2,
            body: 'Name the unit: WINDOW_MS is fine, say so in a comment.',
          }),
        ],
      ],
    ]);
    // The drafts are gone; the recorded review shows its line comments.
    await page.locator('.review .line-comment', { hasText: `${FILE}:3` }).waitFor();
    expect(await diff.getByTestId('draft-comment').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'item-line-comments-sent.png') });
  });

  it('approves with a line comment', async () => {
    await page.keyboard.press('Escape');
    await page.locator(`[data-item="${ids.approve}"]`).dblclick();
    const diff = page.getByTestId('diff');
    await diff.getByRole('button', { name: 'comment on src/ok.ts:1' }).click();
    await typeLineComment('Nice and small.');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('review').getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('footer').getByText(`approve #${ids.approve}: done`).waitFor();
    expect(reviewsOf(ids.approve).map((entry) => [entry.state, entry.comments.map((c) => c.body)])).toEqual([
      ['APPROVED', ['Nice and small.']],
    ]);
    // Approved, it joins the merge queue, live: older than the others and green, it is the head now.
    await page
      .getByTestId('merge-queue')
      .locator(`[data-queue-item="${ids.approve}"]`, { hasText: 'head: merges next' })
      .waitFor();
    expect((await queueNotes()).map(([id, kind]) => [id, kind])).toEqual([
      [ids.approve, 'queue-head'],
      [ids.head, 'queue-waiting'],
      [ids.held, 'queue-held'],
      [ids.next, 'queue-waiting'],
    ]);
    await page.screenshot({ path: join(shots, 'board-merge-queue-head.png') });
  });
});
