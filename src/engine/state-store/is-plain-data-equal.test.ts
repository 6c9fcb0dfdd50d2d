import { describe, expect, it } from 'vitest';
import { isPlainDataEqual } from './is-plain-data-equal.ts';

describe('isPlainDataEqual', () => {
  it('compares nested objects and arrays by value', () => {
    expect(isPlainDataEqual({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBe(true);
  });

  it.each([
    [{ a: 1 }, { a: 2 }],
    [{ a: 1 }, { a: 1, b: undefined }],
    [{ a: undefined }, { b: undefined }],
    [
      [1, 2],
      [2, 1],
    ],
    [[1], [1, 1]],
    [[], {}],
    [null, {}],
    ['1', 1],
    [{ a: [1] }, { a: [1, 2] }],
  ])('tells %j and %j apart', (a, b) => {
    expect(isPlainDataEqual(a, b)).toBe(false);
  });

  it('treats NaN as equal to itself (same as Object.is)', () => {
    expect(isPlainDataEqual(Number.NaN, Number.NaN)).toBe(true);
  });
});
