import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApiServer } from '../../src/api/start-api-server.ts';
import { findProposalDecision } from '../../src/domain/index.ts';
import type { SqliteTracker } from '../../src/storage/index.ts';
import { saveProposal } from '../support/api/save-proposal.ts';
import { startWebDashboard, type WebDashboard } from '../support/web/start-web-dashboard.ts';

/**
 * The web dashboard's proposals panel in a real headless Chromium against `createApiApp` over a temp
 * repository's tracker (as `flotilla serve`): `p` opens the pending proposals with what each plan creates;
 * Accept and Reject (with a reason) record the decision comment `flotilla proposals accept|reject` records,
 * and the decided one leaves the list. Screenshots go to $FLOTILLA_ARTIFACTS_DIR/web-dashboard.
 */

let web: WebDashboard | undefined;
let shots: string;
let tracker: SqliteTracker;
let server: RunningApiServer;
let page: Page;
const ids = { accept: '', reject: '', decided: '' };

beforeAll(async () => {
  web = await startWebDashboard((seed) => {
    const store = { tracker: seed.tracker, history: seed.context.history };
    ids.decided = saveProposal(store, {
      title: 'Plan proposal: docs/specs/old.md',
      tasks: ['Old task'],
      status: 'accepted',
      createdAt: 1_000,
    });
    ids.accept = saveProposal(store, {
      title: 'Plan proposal: docs/specs/limits.md',
      tasks: ['Add the rate limiter', 'Document the limits'],
      status: 'pending',
      createdAt: 2_000,
    });
    ids.reject = saveProposal(store, {
      title: 'Plan proposal: docs/specs/cache.md',
      tasks: ['Cache everything'],
      status: 'pending',
      createdAt: 3_000,
    });
  });
  ({ page, tracker, server, shots } = web);
}, 60_000);

afterAll(async () => {
  await web?.close();
});

const card = (id: string) => page.locator(`[data-testid="proposals"] li[data-proposal="${id}"]`);
const shownProposals = async () => {
  const cards = await page.locator('[data-testid="proposals"] li[data-proposal]').all();
  return await Promise.all(cards.map((li) => li.getAttribute('data-proposal')));
};

describe('the proposals panel', () => {
  it('lists the pending proposals with what they create, behind "N proposals" and p', async () => {
    await page.locator('[data-testid="proposals-toggle"]', { hasText: '2 proposals' }).waitFor();
    await page.locator('[data-testid="live"]', { hasText: 'live' }).waitFor();
    await page.keyboard.press('p');
    await card(ids.accept).waitFor();
    expect(await shownProposals()).toEqual([ids.reject, ids.accept]);
    const text = await card(ids.accept).innerText();
    expect(text).toContain('Create (2):');
    expect(text).toContain('[T1] Add the rate limiter');
    expect(text).toContain('Document the limits');
    expect(text).toContain('blocked by: T1');
    await page.screenshot({ path: join(shots, 'proposals.png') });
  });

  it('accepts one: the decision comment as the human, and it leaves the list', async () => {
    await card(ids.accept).locator('[data-testid="proposal-accept"]').click();
    await card(ids.accept).waitFor({ state: 'detached' });
    await page.locator('[data-testid="footer"]', { hasText: `accepted proposal #${ids.accept}` }).waitFor();
    expect(findProposalDecision(tracker.workItems.getWorkItemComments(ids.accept))).toEqual({
      decision: 'accept',
      reason: null,
      author: 'Ada',
    });
    expect(await shownProposals()).toEqual([ids.reject]);
  });

  it('rejects another with the reason the revising planner gets', async () => {
    await card(ids.reject).locator('[data-testid="proposal-reason"]').fill('cache only the rate limits');
    await page.screenshot({ path: join(shots, 'proposals-reject.png') });
    await card(ids.reject).locator('[data-testid="proposal-reject"]').click();
    await card(ids.reject).waitFor({ state: 'detached' });
    await page
      .locator('[data-testid="footer"]', { hasText: 'the planner revises the plan with your comment' })
      .waitFor();
    expect(findProposalDecision(tracker.workItems.getWorkItemComments(ids.reject))).toEqual({
      decision: 'reject',
      reason: 'cache only the rate limits',
      author: 'Ada',
    });
    await page.locator('[data-testid="proposals"]', { hasText: 'no pending proposals' }).waitFor();
    await page.locator('[data-testid="proposals-toggle"]', { hasText: '0 proposals' }).waitFor();
    // After a reload too: the decisions are recorded, waiting for the engine.
    await page.goto(`${server.url}/#proposals`);
    await page.locator('[data-testid="proposals"]', { hasText: 'no pending proposals' }).waitFor();
    await page.screenshot({ path: join(shots, 'proposals-decided.png') });
  });
});
