import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPipeline,
  buildReviewerRun,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { findRow } from '../../../test/support/tui/find-row.ts';
import type { ReviewHistory, RevisionFile } from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/index.ts';
import type { StreamBuffer } from '../streams/create-stream-buffers.ts';
import {
  buildDetailContent,
  type DetailContent,
  type DetailInputs,
  type Fetched,
} from './build-detail-content.ts';

const NOW = 1_000 + 125_000;

function build(state: EngineState, id: string, overrides: Partial<DetailInputs> = {}): DetailContent {
  return buildDetailContent({
    row: findRow(state, id),
    state,
    body: { status: 'ok', value: 'The body\nsecond line' },
    files: null,
    reviews: null,
    checksLog: null,
    notes: null,
    stream: null,
    now: NOW,
    ...overrides,
  });
}
const lines = (content: DetailContent) =>
  Array.from({ length: content.length }, (_, index) => content.at(index).text);
const stream = (lineList: string[], extra: Partial<StreamBuffer> = {}): StreamBuffer => ({
  sessionID: 'impl-1',
  lines: lineList,
  dropped: 0,
  ended: false,
  ...extra,
});

describe('buildDetailContent', () => {
  it('starts with the title and the facts of the item, and lists its blockers with their status', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'review' }),
        buildWorkItem({ id: '3', status: 'approved' }),
        buildWorkItem({
          id: '2',
          title: 'Build the UI',
          status: 'pending',
          priority: 'high',
          complexity: 'low',
          blockedBy: ['1', '3', '99'],
        }),
      ],
    });
    const text = lines(build(state, '2'));
    expect(text[0]).toBe('#2 Build the UI');
    expect(text[1]).toBe('◌ pending · status pending · priority high · complexity low');
    // Only the blockers still open (#3 approved and #99 closed wait for nothing), never called 'blocked'.
    expect(text[2]).toBe('waiting for #1 (review)');
    expect(text[3]).toBe('dispatched automatically once its blockers are approved or closed');
  });

  it('a blocked task (held at creation, or parked) says nothing dispatches it until a human does', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'blocked' }),
        buildWorkItem({ id: '2', status: 'blocked', kind: 'refinement' }),
      ],
    });
    expect(lines(build(state, '1'))).toContain(
      'parked: nothing dispatches it until you do · d dispatches · u moves it to pending',
    );
    expect(lines(build(state, '2')).some((line) => line.startsWith('parked'))).toBe(false);
  });

  it('running: the question between agents it waits on or is asked in, under the run line', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'in-progress' })],
      agentRuns: [
        {
          ...buildImplementorRun({ sessionID: 'impl-1', workItemID: '1' }),
          conversation: { id: 'c-1', line: 'asks the implementor of #2: Which port?' },
        },
      ],
    });
    const text = lines(build(state, '1', { stream: stream([]) }));
    const runLine = text.findIndex((line) => line.startsWith('implementor running for'));
    expect(text[runLine + 1]).toBe('talk: asks the implementor of #2: Which port?');
  });

  it("running: the agent's live summary line under the run line, once it gave one", () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'in-progress' })],
      agentRuns: [
        {
          ...buildImplementorRun({ sessionID: 'impl-1', workItemID: '1' }),
          summary: 'Writing the greet test',
        },
      ],
    });
    const text = lines(build(state, '1', { stream: stream([]) }));
    const runLine = text.findIndex((line) => line.startsWith('implementor running for'));
    expect(text[runLine + 1]).toBe('now: Writing the greet test');
  });

  it('running: the run line, then the stream lines, live while the stream goes on', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'in-progress' })],
      agentRuns: [buildImplementorRun({ sessionID: 'impl-1234567890', workItemID: '1' })],
    });
    const content = build(state, '1', { stream: stream(['hello', 'world']) });
    const text = lines(content);
    expect(text).toContain('implementor running for 2m05s · session impl-123 · x cancel');
    expect(text).toContain('transcript /logs/impl-1234567890.jsonl');
    expect(text.slice(-2)).toEqual(['hello', 'world']);
    expect(content.live).toBe(true);
    // The body is not shown under a live stream: the stream is what the user watches.
    expect(text).not.toContain('The body');
    expect(build(state, '1', { stream: stream(['done'], { ended: true }) }).live).toBe(false);
  });

  it('running without output yet: a waiting line, live', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [buildRevision({ id: 'r1', workItemID: '1' })],
      agentRuns: [buildReviewerRun({ sessionID: 'rev-1', workItemID: '1', status: 'requested' })],
    });
    const content = build(state, '1', { stream: null });
    expect(lines(content)).toContain('reviewer starting for 2m05s · session rev-1 · x cancel');
    expect(lines(content).at(-1)).toBe('waiting for the agent’s first words…');
    expect(content.live).toBe(true);
  });

  it('running with a trimmed stream says how many earlier lines were dropped', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'in-progress' })],
      agentRuns: [buildImplementorRun({ sessionID: 'impl-1', workItemID: '1' })],
    });
    const text = lines(build(state, '1', { stream: stream(['kept'], { dropped: 42 }) }));
    expect(text).toContain('… 42 earlier lines (full text in the transcript)');
  });

  it('queued for a slot: how long it has waited', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'ready' })],
      dispatchQueue: [
        {
          key: 'implementor:1',
          command: { type: 'requestImplementorRun', workItemID: '1' },
          reason: 'capacity',
          notBefore: null,
          priority: 1,
          queuedAt: NOW - 65_000,
        },
      ],
    });
    expect(lines(build(state, '1'))).toContain('implementor queued for 1m05s: every agent slot is busy');
  });

  it('queued in backoff: how long until the retry', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [buildRevision({ id: 'r1', workItemID: '1' })],
      dispatchQueue: [
        {
          key: 'reviewer:1',
          command: { type: 'requestReviewerRun', workItemID: '1', revisionID: 'r1' },
          reason: 'backoff',
          notBefore: NOW + 30_000,
          priority: 1,
          queuedAt: NOW - 1_000,
        },
      ],
    });
    expect(lines(build(state, '1'))).toContain('reviewer retry waits 30s (backoff after a failure)');
  });

  it('failed: the error, the attempt, the session, the transcript and the keys that retry', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'ready' })],
      agentRuns: [
        buildImplementorRun({
          sessionID: 'impl-failed',
          workItemID: '1',
          status: 'failed',
          error: 'tests failed\nsee log',
        }),
      ],
      failures: {
        'implementor:1': {
          attempts: 2,
          lastReason: 'error',
          lastError: 'tests failed',
          lastFailedAt: 0,
          lastSessionID: 'impl-failed',
        },
      },
    });
    const content = build(state, '1');
    const text = lines(content);
    const at = text.indexOf('implementor failed (attempt 2)');
    expect(at).toBeGreaterThan(0);
    expect(text.slice(at, at + 6)).toEqual([
      'implementor failed (attempt 2)',
      'tests failed',
      'see log',
      'session impl-failed',
      'transcript /logs/impl-failed.jsonl (l opens it)',
      'd retries the implementor · u moves the item to pending',
    ]);
    expect(content.at(at).color).toBe('red');
    expect(content.live).toBe(false);
  });

  it('timed-out reviewer: says timed out and that d retries the reviewer', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [buildRevision({ id: 'r1', workItemID: '1' })],
      agentRuns: [buildReviewerRun({ sessionID: 'rev-t', workItemID: '1', status: 'timed-out' })],
    });
    const text = lines(build(state, '1'));
    expect(text).toContain('reviewer timed out');
    expect(text).toContain('d retries the reviewer');
  });

  it('a failed run on an item a human moved to pending is shown, without the retry hint', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'pending' })],
      agentRuns: [buildImplementorRun({ sessionID: 'impl-f', workItemID: '1', status: 'failed' })],
    });
    const text = lines(build(state, '1'));
    expect(text).toContain('implementor failed');
    expect(text.some((line) => line.startsWith('d retries'))).toBe(false);
  });

  it('revision: branch, head, checks passed, files and the review history', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [
        buildRevision({
          id: 'r1',
          workItemID: '1',
          title: 'Add API',
          headSHA: '0123456789abcdef',
          url: 'https://x/1',
        }),
      ],
    });
    const files: Fetched<RevisionFile[]> = {
      status: 'ok',
      value: [
        { path: 'src/a.ts', status: 'added', patch: null },
        { path: 'src/b.ts', status: 'modified', patch: null },
        { path: 'src/c.ts', status: 'removed', patch: null },
      ],
    };
    const reviews: Fetched<ReviewHistory> = {
      status: 'ok',
      value: {
        reviews: [
          // Replaced by the next review: dismissed, as on GitHub, but what it said is kept.
          { author: 'bot', state: 'DISMISSED', verdict: 'CHANGES_REQUESTED', body: 'first round body' },
          { author: 'bot', state: 'APPROVED', body: 'Looks good\nship it' },
        ],
        inlineComments: [{ path: 'src/a.ts', line: 3, author: 'bot', body: 'nit' }],
      },
    };
    const content = build(state, '1', { files, reviews });
    const text = lines(content);
    expect(text).toContain('revision r1 Add API');
    expect(text).toContain('branch flotilla/1 · head 0123456789ab · https://x/1');
    expect(text).toContain('checks: ✔ passed');
    expect(text).toContain('3 files changed');
    expect(text).toEqual(expect.arrayContaining(['  A src/a.ts', '  M src/b.ts', '  D src/c.ts']));
    expect(text).toContain('review 1/2 by bot: ✖ changes requested (replaced)');
    expect(text).toContain('review 2/2 by bot: ✔ approved');
    expect(text).toEqual(
      expect.arrayContaining(['  Looks good', '  ship it', '  src/a.ts:3 — bot', '    nit']),
    );
    // Earlier reviews are summarised by their verdict only.
    expect(text.some((line) => line.includes('first round body'))).toBe(false);
    expect(text.at(-2)).toBe('The body');
  });

  it("lists the item's task context, oldest first, each entry's source, type, time and summary start", () => {
    const entry = (
      id: string,
      type: 'implementation_summary' | 'review_feedback',
      summary: string,
      at: number,
    ) => ({
      id,
      workItemID: '1',
      sessionID: id,
      role: type === 'review_feedback' ? ('reviewer' as const) : ('implementor' as const),
      runtime: 'claude',
      type,
      summary,
      data: {},
      createdAt: at,
    });
    const state: EngineState = {
      ...buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'pending' })] }),
      taskContext: {
        '1': [
          entry('s1', 'implementation_summary', 'Added greet.\nWith a test.', Date.UTC(2026, 0, 2, 3, 4)),
          entry('s2', 'review_feedback', 'a\nb\nc\nd\ne', Date.UTC(2026, 0, 2, 4, 5)),
        ],
      },
    };
    const text = lines(build(state, '1'));
    const start = text.indexOf('task context (2, oldest first):');
    expect(start).toBeGreaterThan(0);
    expect(text.slice(start + 1, start + 10)).toEqual([
      '  [implementor · claude] implementation_summary — 2026-01-02 03:04',
      '    Added greet.',
      '    With a test.',
      '  [reviewer · claude] review_feedback — 2026-01-02 04:05',
      '    a',
      '    b',
      '    c',
      '    … 2 more line(s): flotilla work show',
      '',
    ]);
    expect(text.at(-2)).toBe('The body');
    // An item without history shows no such block.
    const plain = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'pending' })] });
    expect(lines(build(plain, '1')).some((line) => line.startsWith('task context'))).toBe(false);
  });

  it('revision with failing checks: the reason, the log path and the log tail', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [buildRevision({ id: 'r1', workItemID: '1', pipeline: buildPipeline('failure') })],
    });
    const text = lines(
      build(state, '1', { checksLog: { status: 'ok', value: ['FAIL a.test.ts', '1 failed'] } }),
    );
    expect(text).toContain('checks: ✖ failed — unit tests');
    expect(text).toContain('checks https://ci.example/runs/1');
    const at = text.indexOf('checks https://ci.example/runs/1');
    expect(text.slice(at + 1, at + 3)).toEqual(['FAIL a.test.ts', '1 failed']);
    expect(lines(build(state, '1', { checksLog: { status: 'loading' } }))).toContain('loading checks log…');
  });

  it('counts the failed checks rounds of the item, also while its rework runs', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [buildRevision({ id: 'r1', workItemID: '1', pipeline: buildPipeline('pending') })],
      checkRounds: { '1': 2 },
    });
    expect(lines(build(state, '1')).join('\n')).toContain('checks failed 2 times since the last approval');
    const none = { ...state, checkRounds: {} };
    expect(lines(build(none, '1')).join('\n')).not.toContain('checks failed');
  });

  it('a local checks log (a file path), failed or passed, says c opens it', () => {
    const log = '/repo/.flotilla/logs/checks/checks-abc.log';
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' }),
        buildWorkItem({ id: '2', status: 'review', linkedRevision: 'r2' }),
      ],
      revisions: [
        buildRevision({ id: 'r1', workItemID: '1', pipeline: { ...buildPipeline('failure'), url: log } }),
        buildRevision({ id: 'r2', workItemID: '2', pipeline: { ...buildPipeline('success'), url: log } }),
      ],
    });
    expect(lines(build(state, '1'))).toContain(`log ${log} (c opens it)`);
    expect(lines(build(state, '2'))).toContain(`log ${log} (c opens it)`);
  });

  it('revision with pending or unknown checks', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' }),
        buildWorkItem({ id: '2', status: 'review', linkedRevision: 'r2' }),
      ],
      revisions: [
        buildRevision({ id: 'r1', workItemID: '1', pipeline: buildPipeline('pending') }),
        buildRevision({ id: 'r2', workItemID: '2', pipeline: null }),
      ],
    });
    expect(lines(build(state, '1'))).toContain('checks: pending…');
    expect(lines(build(state, '2'))).toContain('checks: unknown');
  });

  it('files and reviews loading or failing, and no review yet', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' })],
      revisions: [buildRevision({ id: 'r1', workItemID: '1' })],
    });
    const loading = lines(
      build(state, '1', { files: { status: 'loading' }, reviews: { status: 'loading' } }),
    );
    expect(loading).toEqual(expect.arrayContaining(['loading changed files…', 'loading reviews…']));
    const failed = lines(
      build(state, '1', {
        files: { status: 'error', message: 'boom' },
        reviews: { status: 'ok', value: { reviews: [], inlineComments: [] } },
      }),
    );
    expect(failed).toEqual(expect.arrayContaining(['cannot load changed files: boom', 'no review yet']));
  });

  it('the body: loading, error, empty and ok', () => {
    const state = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'ready' })] });
    expect(lines(build(state, '1', { body: { status: 'loading' } })).at(-1)).toBe('loading description…');
    expect(lines(build(state, '1', { body: { status: 'error', message: 'not found' } })).at(-1)).toBe(
      'cannot load description: not found',
    );
    expect(lines(build(state, '1', { body: { status: 'ok', value: '  \n' } })).at(-1)).toBe(
      '(no description)',
    );
    const content = build(state, '1');
    expect(lines(content).slice(-2)).toEqual(['The body', 'second line']);
    expect(content.at(content.length - 3).rule).toBe(true);
  });

  it('at() past the end gives an empty line', () => {
    const state = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'ready' })] });
    expect(build(state, '1').at(999)).toEqual({ text: '' });
  });
});

describe('the merge queue in the detail pane', () => {
  const state = buildTestState({
    workItems: [
      buildWorkItem({ id: '1', title: 'A', status: 'approved', linkedRevision: 'r1' }),
      buildWorkItem({ id: '2', title: 'B', status: 'approved', linkedRevision: 'r2', blockedBy: ['1'] }),
      buildWorkItem({ id: '3', title: 'C', status: 'approved', linkedRevision: 'r3' }),
      buildWorkItem({ id: '4', title: 'D', status: 'review', linkedRevision: 'r4' }),
    ],
    revisions: [
      buildRevision({
        id: 'r1',
        workItemID: '1',
        headSHA: 'a'.repeat(40),
        pipeline: buildPipeline('pending'),
      }),
      buildRevision({ id: 'r2', workItemID: '2' }),
      buildRevision({ id: 'r3', workItemID: '3' }),
      buildRevision({ id: 'r4', workItemID: '4' }),
    ],
  });

  it("shows each approved item's place: the head and what it waits for, a held entry, one behind", () => {
    expect(lines(build(state, '1'))).toContain(`merge queue 1/3 · head: checks running on ${'a'.repeat(12)}`);
    expect(lines(build(state, '2'))).toContain('merge queue 2/3 · held: waits for #1 to merge');
    expect(lines(build(state, '3'))).toContain(
      `merge queue 3/3 · behind #1 (checks running on ${'a'.repeat(12)})`,
    );
    expect(lines(build(state, '4')).some((line) => line.startsWith('merge queue'))).toBe(false);
  });

  it("shows an item in GitHub's merge queue with its place and GitHub's state there", () => {
    const queued = (position: number, queueState: string) => ({
      pipeline: buildPipeline('pending'),
      trackerQueue: {
        position,
        state: queueState,
        enqueuedAt: '2025-02-01T00:00:00Z',
        estimatedTimeToMerge: 120,
      },
    });
    const github = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', title: 'A', status: 'approved', linkedRevision: 'r1' }),
        buildWorkItem({ id: '2', title: 'B', status: 'approved', linkedRevision: 'r2' }),
        buildWorkItem({ id: '3', title: 'C', status: 'approved', linkedRevision: 'r3' }),
      ],
      revisions: [
        buildRevision({ id: 'r1', workItemID: '1', ...queued(2, 'QUEUED') }),
        buildRevision({ id: 'r2', workItemID: '2', ...queued(1, 'AWAITING_CHECKS') }),
        buildRevision({ id: 'r3', workItemID: '3' }),
      ],
    });
    expect(lines(build(github, '2'))).toContain(
      "merge queue 1/3 · head: in GitHub's merge queue at position 1 (first): AWAITING_CHECKS — waiting for its merge group's checks to pass; GitHub estimates 2 min to merge",
    );
    expect(lines(build(github, '1'))).toContain(
      "merge queue 2/3 · in GitHub's merge queue at position 2 (1 ahead): QUEUED — queued, its merge group not started yet; GitHub estimates 2 min to merge",
    );
    expect(lines(build(github, '3'))).toContain(
      "merge queue 3/3 · behind #2 (in GitHub's merge queue at position 1 (first): AWAITING_CHECKS — waiting for its merge group's checks to pass; GitHub estimates 2 min to merge)",
    );
  });
});
