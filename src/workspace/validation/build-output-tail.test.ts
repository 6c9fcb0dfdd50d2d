import { describe, expect, it } from 'vitest';
import { buildOutputTail } from './build-output-tail.ts';

const lines = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

describe('buildOutputTail', () => {
  it('keeps short output whole (trailing whitespace trimmed)', () => {
    expect(buildOutputTail('FAIL a.test.js\nexpected 1, got 2\n\n')).toEqual({
      text: 'FAIL a.test.js\nexpected 1, got 2',
      truncated: false,
    });
  });

  it('keeps the last 200 lines by default and says how many there were', () => {
    const tail = buildOutputTail(lines(250).join('\n'));
    expect(tail.truncated).toBe(true);
    const shown = tail.text.split('\n');
    expect(shown[0]).toBe('[output truncated: 250 lines in all, showing the last 200 lines]');
    expect(shown.slice(1)).toEqual(lines(250).slice(50));
  });

  it('keeps at most 16 KB by default, cut at a line start, and says so', () => {
    const output = lines(150, 'x'.repeat(200)).join('\n');
    const tail = buildOutputTail(output);
    expect(tail.truncated).toBe(true);
    const [header, ...rest] = tail.text.split('\n');
    expect(header).toMatch(/^\[output truncated: 150 lines in all, showing the last \d+ bytes\]$/);
    expect(Buffer.byteLength(rest.join('\n'))).toBeLessThanOrEqual(16 * 1024);
    expect(rest.at(-1)).toBe(`${'x'.repeat(200)} 150`);
    expect(rest[0]).toMatch(/^x{200} \d+$/);
  });

  it('never splits a multi-byte character when a single line is too long', () => {
    const tail = buildOutputTail('é'.repeat(10_000), { maxBytes: 101 });
    expect(tail.truncated).toBe(true);
    const body = tail.text.split('\n')[1] ?? '';
    expect(body).toMatch(/^é+$/);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(101);
  });

  it('follows custom limits', () => {
    expect(buildOutputTail('a\nb\nc\nd', { maxLines: 2 }).text).toBe(
      '[output truncated: 4 lines in all, showing the last 2 lines]\nc\nd',
    );
  });
});
