import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('specDir', 'specsDir')).toBe(1);
    expect(editDistance('planer', 'planner')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('wrok', 'work')).toBe(1);
    expect(editDistance('mxaAttemtps', 'maxAttempts')).toBe(2);
  });

  it('is case-sensitive', () => {
    expect(editDistance('Work', 'work')).toBe(1);
  });
});
