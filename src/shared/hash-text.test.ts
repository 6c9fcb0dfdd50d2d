import { describe, expect, it } from 'vitest';
import { hashText } from './hash-text.ts';

describe('hashText', () => {
  it('is stable, 16 hex digits, and differs when the text does', () => {
    expect(hashText('Make it faster')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashText('Make it faster')).toBe(hashText('Make it faster'));
    expect(hashText('Make it faster')).not.toBe(hashText('Make it slower'));
  });

  it('ignores CRLF line ends and surrounding whitespace, as trackers change them', () => {
    expect(hashText('a\r\nb\n')).toBe(hashText('a\nb'));
    expect(hashText('  a\nb  ')).toBe(hashText('a\nb'));
    expect(hashText('a\n\nb')).not.toBe(hashText('a\nb'));
  });
});
