import { describe, expect, it } from 'vitest';
import { buildChecksOutputTail } from './build-checks-output-tail.ts';

describe('buildChecksOutputTail', () => {
  it('keeps the end within the line and byte bounds', () => {
    expect(buildChecksOutputTail('a\nb', 'u')).toEqual({ text: 'a\nb', truncated: false, logPath: 'u' });
    expect(buildChecksOutputTail('1\n2\n3\n4', 'u', { maxLines: 2 })).toMatchObject({
      text: '3\n4',
      truncated: true,
    });
    expect(buildChecksOutputTail('aaaa\nbbbb\ncc', 'u', { maxBytes: 8 })).toMatchObject({
      text: 'bbbb\ncc',
      truncated: true,
    });
    expect(buildChecksOutputTail('x'.repeat(20), 'u', { maxBytes: 5 })).toMatchObject({
      text: 'xxxxx',
      truncated: true,
    });
  });
});
