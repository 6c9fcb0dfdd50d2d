import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hasErrorCode } from './has-error-code.ts';

describe('hasErrorCode', () => {
  it("matches a real system error's code, and only that code", async () => {
    const error = await readFile('/nonexistent/flotilla-has-error-code').catch((caught: unknown) => caught);
    expect(hasErrorCode(error, 'ENOENT')).toBe(true);
    expect(hasErrorCode(error, 'EEXIST')).toBe(false);
  });

  it('is false for errors without a code and for values that are not Errors', () => {
    expect(hasErrorCode(new Error('ENOENT'), 'ENOENT')).toBe(false);
    expect(hasErrorCode({ code: 'ENOENT' }, 'ENOENT')).toBe(false);
    expect(hasErrorCode('ENOENT', 'ENOENT')).toBe(false);
    expect(hasErrorCode(null, 'ENOENT')).toBe(false);
  });
});
