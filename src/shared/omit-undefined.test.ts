import { describe, expect, it } from 'vitest';
import { omitUndefined } from './omit-undefined.ts';

describe('omitUndefined', () => {
  it('drops undefined fields and keeps null, false, 0 and empty strings', () => {
    const result = omitUndefined({ a: undefined, b: null, c: false, d: 0, e: '', f: 'x' });
    expect(result).toEqual({ b: null, c: false, d: 0, e: '', f: 'x' });
    expect(Object.hasOwn(result, 'a')).toBe(false);
  });
});
