import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.ts';

describe('formatDuration', () => {
  it('seconds under a minute', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(999)).toBe('0s');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(59_999)).toBe('59s');
  });
  it('minutes with zero-padded seconds', () => {
    expect(formatDuration(60_000)).toBe('1m00s');
    expect(formatDuration(185_000)).toBe('3m05s');
    expect(formatDuration(59 * 60_000 + 59_000)).toBe('59m59s');
  });
  it('hours with zero-padded minutes', () => {
    expect(formatDuration(3_600_000)).toBe('1h00m');
    expect(formatDuration(2 * 3_600_000 + 4 * 60_000 + 30_000)).toBe('2h04m');
    expect(formatDuration(30 * 3_600_000)).toBe('30h00m');
  });
  it('negative durations (clock skew) show as zero', () => {
    expect(formatDuration(-5_000)).toBe('0s');
  });
});
