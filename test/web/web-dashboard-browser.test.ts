import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveFlotillaPaths } from '../../src/config/index.ts';
import { ANSWER_COMMENT_MARKER, buildQuestionsComment, type EngineEvent } from '../../src/domain/index.ts';
import { periodKeysOf } from '../../src/engine/budget/budget-calendar.ts';
import { applyStateUpdate } from '../../src/engine/state-store/apply-state-update.ts';
import { buildInitialEngineState } from '../../src/engine/state-store/engine-state.ts';
import { buildAddFilePatch } from '../../src/runtimes/scripted/build-scripted-results.ts';
import type { SqliteTracker } from '../../src/storage/index.ts';
import { createItemWithRevision, withLocalProvider } from '../support/cli/with-local-provider.ts';
import { startWebDashboard, type WebDashboard } from '../support/web/start-web-dashboard.ts';

/**
 * The web dashboard in a real headless Chromium (Debian's, through playwright-core) against `createApiApp`
 * over a temp repository's tracker, as `flotilla serve` runs it: the tracker watch turns changes made
 * outside the page into events, and the page's actions go through the API. Screenshots of the board and an
 * item go to $FLOTILLA_ARTIFACTS_DIR/web-dashboard (default: a temp directory, printed).
 */

let web: WebDashboard | undefined;
let shots: string;
let tracker: SqliteTracker;
let page: Page;
const ids = { login: '', export: '', asks: '', revised: '', approveMe: '', rework: '', approveByKey: '' };
const REVIEWER = 'cccc3333-0000-4000-8000-000000000003';

beforeAll(async () => {
  web = await startWebDashboard(async (seed) => {
    const { repo, context } = seed;
    tracker = seed.tracker;
    const revised = await withLocalProvider(repo.root, { checksCommand: null }, (provider) =>
      createItemWithRevision(
        provider,
        buildAddFilePatch(
          'src/rate-limit.ts',
          'export const LIMIT = 100;\nexport const WINDOW_MS = 60_000;\n',
        ),
        'review',
      ),
    );
    ids.revised = revised.id;
    const create = (title: string, body = '') =>
      tracker.workItems.createWorkItem({ title, body, labels: [], blockedBy: [] }).id;
    ids.login = create('Add a login form', 'Email and password, with a remember-me box.');
    ids.export = create('Export the report as CSV');
    tracker.workItems.transitionStatus(ids.export, 'in-progress');
    ids.asks = create('Rate-limit the public API', 'Per API key, configurable.');
    tracker.workItems.transitionStatus(ids.asks, 'waiting-for-input');
    tracker.workItems.addComment(
      ids.asks,
      buildQuestionsComment({
        role: 'implementor',
        workItemID: ids.asks,
        questions: ['Per key or per IP?', 'Which limit: 100 or 1000 requests a minute?'],
      }),
      'flotilla',
    );
    // A reviewer at work on the revised item, with its transcript so far (recorded as the engine records runs).
    const sessions = resolveFlotillaPaths(repo.root).sessionsDir;
    mkdirSync(sessions, { recursive: true });
    const log = join(sessions, 'reviewer.log');
    writeFileSync(log, '=== reviewer session ===\n[10:00:01] ASSISTANT Reading src/rate-limit.ts\n');
    const recorded: EngineEvent[] = [
      {
        type: 'reviewerRequested',
        sessionID: REVIEWER,
        workItemID: ids.revised,
        revisionID: revised.revisionID,
        at: 1_000,
      },
      { type: 'reviewerStarted', sessionID: REVIEWER, logFilePath: log, at: 1_100, runtime: 'claude' },
      // Issue #28 §2: what the reviewer recorded on the item while it worked.
      ...[
        {
          kind: 'decision',
          decision: 'The limit is per API key',
          why: 'the spec says <i>per key</i>',
        } as const,
        { kind: 'question', text: 'Should the limit be configurable per key?' } as const,
      ].map(
        (note, index): EngineEvent => ({
          type: 'agentNoted',
          sessionID: REVIEWER,
          role: 'reviewer',
          workItemID: revised.id,
          runtime: 'claude',
          note,
          at: 1_200 + index,
        }),
      ),
    ];
    let state = buildInitialEngineState();
    for (const event of recorded) {
      state = applyStateUpdate(state, event).state;
      context.history.record(event, state);
    }
    // Issue #28 §3: the revised item's reviewer asked the login item's implementor; an ask of nobody.
    const party = (sessionID: string, role: 'implementor' | 'reviewer', workItemID: string) => ({
      sessionID,
      role,
      workItemID,
    });
    context.history.conversations.save({
      id: 'c-limits',
      from: party(REVIEWER, 'reviewer', ids.revised),
      target: ids.login,
      to: party('dddd4444-0000-4000-8000-000000000004', 'implementor', ids.login),
      question: 'Does the login form send <b>100</b> requests a minute?',
      status: 'answered',
      answer: 'At most 5: one per submit.',
      timeoutSeconds: 60,
      createdAt: 2_000,
      answeredAt: 2_500,
    });
    context.history.conversations.save({
      id: 'c-nobody',
      from: party('eeee5555-0000-4000-8000-000000000005', 'implementor', ids.export),
      target: 'planner',
      to: null,
      question: 'Which columns go in the CSV?',
      status: 'not-running',
      answer: 'no agent planner is running now; nobody was asked.',
      timeoutSeconds: 60,
      createdAt: 3_000,
      answeredAt: 3_000,
    });
    const approved = create('Dark mode');
    tracker.workItems.transitionStatus(approved, 'approved');
    // Three more revisions in review for the human's verdicts, after the others (the key test's order).
    const paths = resolveFlotillaPaths(repo.root);
    // Where the local checks runner writes its logs, the one place the checks log route reads.
    const checksLog = join(paths.logsDir, 'checks', 'checks-rework.log');
    await withLocalProvider(repo.root, { checksCommand: null }, async (provider) => {
      const revise = (file: string) =>
        createItemWithRevision(provider, buildAddFilePatch(file, 'x\n'), 'review');
      ids.approveMe = (await revise('src/approve-me.ts')).id;
      const rework = await revise('src/rework.ts');
      ids.rework = rework.id;
      ids.approveByKey = (await revise('src/by-key.ts')).id;
      mkdirSync(join(paths.logsDir, 'checks'), { recursive: true });
      writeFileSync(checksLog, '$ npm test\nFAIL src/rework.test.ts\n  expected 2, got 3\n');
      provider.tracker.revisions.setPipeline(rework.revisionID, rework.headSHA, {
        status: 'failure',
        url: checksLog,
        reason: 'npm test failed',
      });
    });
    // Spend on three of the last days (the chart), in the budget's time zone.
    const DAY = 86_400_000;
    for (const [daysAgo, costUSD] of [
      [0, 1.5],
      [1, 0.5],
      [3, 2],
    ] as const) {
      const { day, month } = periodKeysOf(Date.now() - daysAgo * DAY, context.config.budgets.timeZone);
      context.history.ledger.record({
        sessionID: `spend-${daysAgo}`,
        workItemID: ids.login,
        role: 'implementor',
        runtime: 'claude',
        model: null,
        account: null,
        day,
        month,
        costUSD,
        inputTokens: 1000,
        outputTokens: 10,
        ended: true,
        budgetStop: null,
        requestedAt: 1,
        updatedAt: 1,
      });
    }
  });
  ({ page, tracker, shots } = web);
}, 60_000);

afterAll(async () => {
  await web?.close();
});

const card = (column: string, id: string) => page.locator(`[data-column="${column}"] [data-item="${id}"]`);

describe('the web dashboard in Chromium', { timeout: 60_000 }, () => {
  it('shows the board by status, live, with the budget line', async () => {
    await card('pending', ids.login).waitFor();
    await card('in-progress', ids.export).waitFor();
    await card('waiting', ids.asks).waitFor();
    await card('review', ids.revised).locator('.badge-reviewing').waitFor();
    await page.getByText('● live').waitFor();
    expect(await page.getByTestId('budget').textContent()).toContain('today $1.50');
  });

  it('draws spend per day as SVG bars, today the last', async () => {
    const bars = page.getByTestId('spend-chart').locator('rect.spend-bar');
    await bars.first().waitFor({ state: 'attached' });
    expect(await bars.count()).toBe(14);
    const heights = await bars.evaluateAll((nodes) =>
      nodes.map((node) =>
        Number((node as unknown as { getAttribute(name: string): string }).getAttribute('height')),
      ),
    );
    // $2 three days ago is the highest (no daily cap configured): the full height; $1.50 today 3/4 of it, $0.50 yesterday 1/4.
    expect(heights.slice(-4)).toEqual([26, 0, 6.5, 19.5]);
    expect(heights.slice(0, 10).every((height) => height === 0)).toBe(true);
    expect(await page.getByTestId('quota').count()).toBe(0);
  });

  it('moves a card when another process changes the item', async () => {
    tracker.workItems.transitionStatus(ids.export, 'review');
    await card('review', ids.export).waitFor();
    expect(await card('in-progress', ids.export).count()).toBe(0);
    await page.screenshot({ path: join(shots, 'board.png') });
  });

  it('selects with j/k and h/l, opens with Enter, closes with Esc, lists the keys with ?', async () => {
    await page.locator(`[data-item="${ids.login}"]`).click();
    await page.keyboard.press('l');
    const selected = () => page.locator('.card[aria-selected="true"]').getAttribute('data-item');
    expect(await selected()).toBe(ids.revised);
    await page.keyboard.press('j');
    expect(await selected()).toBe(ids.export);
    await page.keyboard.press('k');
    expect(await selected()).toBe(ids.revised);
    await page.keyboard.press('h');
    expect(await selected()).toBe(ids.login);
    await page.keyboard.press('Enter');
    await page.getByTestId('detail').getByText('Email and password').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('detail').waitFor({ state: 'detached' });
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'keys' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'keys' }).waitFor({ state: 'detached' });
  });

  it("answers an agent's questions from the page", async () => {
    await page.locator(`[data-item="${ids.asks}"]`).dblclick();
    const questions = page.getByTestId('questions');
    await questions.getByText('Per key or per IP?').waitFor();
    await page.screenshot({ path: join(shots, 'item-questions.png') });
    await page.keyboard.press('a');
    await page.keyboard.type('Per key; 100 a minute.');
    await questions.getByRole('button', { name: 'Answer' }).click();
    await page.getByTestId('footer').getByText(`answer #${ids.asks}: done`).waitFor();
    const answers = tracker.workItems
      .getWorkItemComments(ids.asks)
      .filter((comment) => comment.body.startsWith(ANSWER_COMMENT_MARKER));
    expect(answers.map((comment) => [comment.author, comment.body.split('\n')[1]])).toEqual([
      ['Ada', 'Per key; 100 a minute.'],
    ]);
  });

  it('dispatches from the page', async () => {
    await page.locator(`[data-item="${ids.login}"]`).dblclick();
    await page.getByTestId('detail').getByText('Email and password').waitFor();
    await page.getByRole('button', { name: 'Dispatch' }).click();
    await page.getByTestId('footer').getByText(`dispatch #${ids.login}: done`).waitFor();
    expect(tracker.workItems.getWorkItem(ids.login)?.status).toBe('ready');
    await page.locator(`[data-item="${ids.login}"][data-status="ready"]`).waitFor();
  });

  it("shows an item's revision (checks, the diff in colour) and its agent's transcript", async () => {
    await page.locator(`[data-item="${ids.revised}"]`).dblclick();
    const added = page.getByTestId('diff').locator('.diff-green', { hasText: '+export const LIMIT = 100;' });
    await added.waitFor();
    // Runs in the page (this project's types have no DOM).
    const color = await added.evaluate(
      (element) =>
        (globalThis as unknown as { getComputedStyle(node: unknown): { color: string } }).getComputedStyle(
          element,
        ).color,
    );
    expect(color).toBe('rgb(63, 185, 80)');
    await page.getByTestId('checks').waitFor();
    await page.getByTestId('transcript').getByText('Reading src/rate-limit.ts').waitFor();
    await page.screenshot({ path: join(shots, 'item-detail.png') });
  });

  it('shows the conversations between agents: on the item, and all of them with t', async () => {
    await page.locator(`[data-item="${ids.revised}"]`).dblclick();
    const onItem = page.getByTestId('item-conversations');
    await onItem.getByText('A: At most 5: one per submit.').waitFor();
    // What agents wrote stays text: the question's markup is shown, not rendered.
    await onItem.getByText('Q: Does the login form send <b>100</b> requests a minute?').waitFor();
    expect(await onItem.locator('[data-conversation]').count()).toBe(1);
    // The decisions and questions its agents recorded (issue #28 §2), as text.
    const decisions = page.getByTestId('item-decisions');
    await decisions.getByText('The limit is per API key').waitFor();
    await decisions.getByText('why: the spec says <i>per key</i>').waitFor();
    await page
      .getByTestId('item-logged-questions')
      .getByText('Should the limit be configurable per key?')
      .waitFor();
    await page.keyboard.press('t');
    const panel = page.getByTestId('conversations');
    await panel.getByText(`implementor of #${ids.export} → 'planner'`).waitFor();
    expect(
      await panel
        .locator('[data-conversation]')
        .evaluateAll((nodes) =>
          nodes.map(
            (node) => (node as unknown as { dataset: { conversation: string } }).dataset.conversation,
          ),
        ),
    ).toEqual(['c-nobody', 'c-limits']);
    await panel.locator('.conversation-not-running', { hasText: '[not-running]' }).waitFor();
    expect(await page.getByTestId('conversations-toggle').textContent()).toContain('2 conversations');
    await page.screenshot({ path: join(shots, 'conversations.png') });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    // The item stays open under it (the next test acts on it).
    await page.getByTestId('detail').waitFor();
  });

  it('refuses an engine action without an engine and says why in the footer', async () => {
    tracker.workItems.transitionStatus(ids.revised, 'approved');
    const merge = page.getByRole('button', { name: 'Merge' });
    await merge.waitFor();
    await merge.click();
    await page.getByTestId('footer').getByText(`merge #${ids.revised}:`).waitFor();
    expect(await page.getByTestId('footer').textContent()).not.toContain('done');
  });

  it("approves a revision from the page: the item is approved, the review recorded as the human's", async () => {
    await page.locator(`[data-item="${ids.approveMe}"]`).dblclick();
    const review = page.getByTestId('review');
    await review.waitFor();
    expect(await review.getByRole('button', { name: 'Request changes' }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'item-review.png') });
    await review.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('footer').getByText(`approve #${ids.approveMe}: done`).waitFor();
    expect(tracker.workItems.getWorkItem(ids.approveMe)?.status).toBe('approved');
    const revisionID = tracker.workItems.getWorkItem(ids.approveMe)?.linkedRevision ?? '';
    expect(tracker.revisions.listReviews(revisionID).map((r) => [r.author, r.state])).toEqual([
      ['Ada', 'APPROVED'],
    ]);
    await page.locator(`[data-column="approved"] [data-item="${ids.approveMe}"]`).waitFor();
    // An approved item can still be reviewed (as `flotilla review`); the detail shows the verdict.
    await page.getByTestId('detail').getByText('APPROVED').first().waitFor();
  });

  it('requests changes from the page with the keys: c shows the checks log, R the review box', async () => {
    await page.keyboard.press('Escape');
    await page.locator(`[data-item="${ids.rework}"]`).click();
    await page.keyboard.press('c');
    const log = page.getByTestId('checks-log');
    await log.getByText('expected 2, got 3').waitFor();
    await page.keyboard.press('R');
    await page.keyboard.type('The limit is off by one: see the checks log.');
    await page.screenshot({ path: join(shots, 'item-request-changes.png') });
    await page.getByTestId('review').getByRole('button', { name: 'Request changes' }).click();
    await page.getByTestId('footer').getByText(`request changes #${ids.rework}: done`).waitFor();
    expect(tracker.workItems.getWorkItem(ids.rework)?.status).toBe('pending');
    const revisionID = tracker.workItems.getWorkItem(ids.rework)?.linkedRevision ?? '';
    expect(tracker.revisions.listReviews(revisionID).map((r) => [r.author, r.state, r.body])).toEqual([
      ['Ada', 'CHANGES_REQUESTED', 'The limit is off by one: see the checks log.'],
    ]);
    await page.locator(`[data-column="pending"] [data-item="${ids.rework}"]`).waitFor();
    expect(await page.getByRole('textbox', { name: 'Review' }).inputValue()).toBe('');
  });

  it('approves with A after asking; n drops the question', async () => {
    await page.keyboard.press('Escape');
    await page.locator(`[data-item="${ids.approveByKey}"]`).click();
    await page.keyboard.press('A');
    const footer = page.getByTestId('footer');
    await footer.getByText(`approve #${ids.approveByKey}'s revision? y / n`).waitFor();
    await page.keyboard.press('n');
    await footer.getByText('y / n').waitFor({ state: 'detached' });
    expect(tracker.workItems.getWorkItem(ids.approveByKey)?.status).toBe('review');
    await page.keyboard.press('A');
    await footer.getByText('y / n').waitFor();
    await page.keyboard.press('y');
    await footer.getByText(`approve #${ids.approveByKey}: done`).waitFor();
    expect(tracker.workItems.getWorkItem(ids.approveByKey)?.status).toBe('approved');
  });

  it('refuses a verdict on an item without a revision and says why in the footer', async () => {
    await page.keyboard.press('Escape');
    await page.locator(`[data-item="${ids.asks}"]`).click();
    await page.keyboard.press('A');
    await page.keyboard.press('y');
    await page
      .getByTestId('footer')
      .getByText(`approve #${ids.asks}: #${ids.asks} has no open revision`)
      .waitFor();
  });
});
