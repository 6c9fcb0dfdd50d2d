import { describe, expect, it } from 'vitest';
import { decodeAnsiCString } from './decode-ansi-c-string.ts';

describe('decodeAnsiCString', () => {
  it.each([
    ['\\x72m', 'rm'],
    ['\\162\\155', 'rm'],
    ['\\u0072m', 'rm'],
    ['\\U00000072m', 'rm'],
    ['a\\tb\\n', 'a\tb\n'],
    ["it\\'s", "it's"],
    ['\\\\', '\\'],
    ['\\cA', '\u0001'],
    ['\\q', '\\q'],
    ['plain', 'plain'],
  ])('decodes %j as %j', (body, expected) => {
    expect(decodeAnsiCString(body)).toBe(expected);
  });

  it('stops at a NUL byte, as bash does', () => {
    expect(decodeAnsiCString('rm\\0 -rf')).toBe('rm');
  });
});
