import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildReviewerRun,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import type { WorkItemStatus } from '../../domain/index.ts';
import { buildDisplayStatus, DISPLAY_STATUS_STYLES, type DisplayStatus } from './display-status.ts';

const item = (status: WorkItemStatus) => buildWorkItem({ id: '1', status });

describe('buildDisplayStatus', () => {
  it('maps each tracker status when nothing runs, is queued or failed', () => {
    const expected: Record<Exclude<WorkItemStatus, 'closed'>, DisplayStatus> = {
      pending: 'pending',
      ready: 'dispatch',
      'in-progress': 'implementing',
      review: 'reviewing',
      approved: 'approved',
      'needs-refinement': 'needs-refinement',
      blocked: 'blocked',
      'waiting-for-input': 'waiting-for-input',
    };
    for (const [status, display] of Object.entries(expected)) {
      expect(buildDisplayStatus(item(status as WorkItemStatus), null, false)).toBe(display);
    }
  });

  it('hides closed items, even with an active run or a queued dispatch', () => {
    expect(buildDisplayStatus(item('closed'), null, false)).toBeNull();
    expect(buildDisplayStatus(item('closed'), buildImplementorRun({ workItemID: '1' }), true)).toBeNull();
  });

  it('an active run wins over everything: implementor → implementing, reviewer → reviewing', () => {
    for (const status of ['requested', 'running'] as const) {
      expect(buildDisplayStatus(item('ready'), buildImplementorRun({ workItemID: '1', status }), true)).toBe(
        'implementing',
      );
      expect(buildDisplayStatus(item('approved'), buildReviewerRun({ workItemID: '1', status }), true)).toBe(
        'reviewing',
      );
    }
  });

  it('a queued dispatch wins over a failed latest run and over the tracker status', () => {
    const failed = buildImplementorRun({ workItemID: '1', status: 'failed' });
    expect(buildDisplayStatus(item('ready'), failed, true)).toBe('queued');
    expect(buildDisplayStatus(item('blocked'), null, true)).toBe('queued');
  });

  it('a failed or timed-out latest run shows failed', () => {
    for (const status of ['failed', 'timed-out'] as const) {
      expect(buildDisplayStatus(item('ready'), buildImplementorRun({ workItemID: '1', status }), false)).toBe(
        'failed',
      );
      expect(buildDisplayStatus(item('review'), buildReviewerRun({ workItemID: '1', status }), false)).toBe(
        'failed',
      );
      expect(
        buildDisplayStatus(item('blocked'), buildImplementorRun({ workItemID: '1', status }), false),
      ).toBe('failed');
    }
  });

  it('a cancelled or completed latest run does not count as a failure', () => {
    expect(
      buildDisplayStatus(
        item('blocked'),
        buildImplementorRun({ workItemID: '1', status: 'cancelled' }),
        false,
      ),
    ).toBe('blocked');
    expect(
      buildDisplayStatus(
        item('review'),
        buildImplementorRun({ workItemID: '1', status: 'completed' }),
        false,
      ),
    ).toBe('reviewing');
  });

  it('a human who moved the item to pending, or an approval since, wins over a failed run', () => {
    const failed = buildImplementorRun({ workItemID: '1', status: 'failed' });
    expect(buildDisplayStatus(item('pending'), failed, false)).toBe('pending');
    const reviewerTimedOut = buildReviewerRun({ workItemID: '1', status: 'timed-out' });
    expect(buildDisplayStatus(item('approved'), reviewerTimedOut, false)).toBe('approved');
  });

  it('every display status has a label of at most 8 columns', () => {
    for (const style of Object.values(DISPLAY_STATUS_STYLES))
      expect(style.label.length).toBeLessThanOrEqual(8);
  });
});
