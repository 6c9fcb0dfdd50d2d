import { describe, expect, it } from 'vitest';
import { createPollPacer } from './create-poll-pacer.ts';

const ticks = (pace: () => boolean, count: number) =>
  Array.from({ length: count }, () => (pace() ? 'P' : '.')).join('');

describe('createPollPacer', () => {
  it('polls on every tick at factor 1, every n-th at factor n, and follows the factor as it changes', () => {
    let factor = 1;
    const pace = createPollPacer(() => factor);
    expect(ticks(pace, 3)).toBe('PPP');
    factor = 4; // read at the next poll
    expect(ticks(pace, 9)).toBe('P...P...P');
    factor = 1;
    expect(ticks(pace, 5)).toBe('...PP');
  });

  it('treats a missing or nonsensical factor as 1', () => {
    for (const factor of [0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        ticks(
          createPollPacer(() => factor),
          3,
        ),
      ).toBe('PPP');
    }
  });
});
