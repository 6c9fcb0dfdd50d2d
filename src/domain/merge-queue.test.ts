import { describe, expect, it } from 'vitest';
import { describeTrackerQueueEntry } from './merge-queue.ts';

describe('describeTrackerQueueEntry', () => {
  it("words each of GitHub's MergeQueueEntryState values, the place and GitHub's estimate", () => {
    const at = (position: number, state: string, estimatedTimeToMerge: number | null = null) =>
      describeTrackerQueueEntry({ position, state, estimatedTimeToMerge });
    expect(at(1, 'QUEUED')).toBe(
      "in GitHub's merge queue at position 1 (first): QUEUED — queued, its merge group not started yet",
    );
    expect(at(3, 'AWAITING_CHECKS', 90)).toBe(
      "in GitHub's merge queue at position 3 (2 ahead): AWAITING_CHECKS — waiting for its merge group's checks to pass; GitHub estimates 2 min to merge",
    );
    expect(at(1, 'MERGEABLE', 20)).toBe(
      "in GitHub's merge queue at position 1 (first): MERGEABLE — its merge group passed: GitHub merges it; GitHub estimates 20 s to merge",
    );
    expect(at(2, 'UNMERGEABLE')).toContain(
      'UNMERGEABLE — GitHub cannot merge it (its merge group failed its checks or conflicts): it leaves the queue',
    );
    expect(at(1, 'LOCKED', 7500)).toBe(
      "in GitHub's merge queue at position 1 (first): LOCKED — locked by GitHub while the queue works on it; GitHub estimates 2 h 5 min to merge",
    );
    // A state GitHub adds later is shown as GitHub says it.
    expect(at(1, 'PAUSED')).toBe("in GitHub's merge queue at position 1 (first): PAUSED");
  });
});
