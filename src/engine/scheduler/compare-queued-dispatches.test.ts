import { describe, expect, it } from 'vitest';
import { compareQueuedDispatches, type RankedDispatch } from './compare-queued-dispatches.ts';

function entry(key: string, priority: number, ageKey: number, queuedAt: number): RankedDispatch {
  return {
    key,
    command: { type: 'requestImplementorRun', workItemID: key },
    reason: 'capacity',
    notBefore: null,
    priority,
    queuedAt,
    ageKey,
  };
}

describe('compareQueuedDispatches', () => {
  it('orders by priority, then item age, then queue time', () => {
    const entries = [
      entry('low-old', 1, 1, 1),
      entry('high-new', 3, 50, 2),
      entry('high-old', 3, 10, 3),
      entry('high-old-later', 3, 10, 9),
      entry('none', 0, 0, 0),
    ];
    expect(entries.sort(compareQueuedDispatches).map((e) => e.key)).toEqual([
      'high-old',
      'high-old-later',
      'high-new',
      'low-old',
      'none',
    ]);
  });
});
