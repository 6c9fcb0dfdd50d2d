import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { hasControlCharacters } from '../../../test/support/tui/has-control-characters.ts';
import type { DetailContent, DetailLine } from './build-detail-content.ts';
import { buildViewport, createWrapCache } from './build-viewport.ts';

function content(lines: (string | DetailLine)[], live = false): DetailContent {
  const all = lines.map((line) => (typeof line === 'string' ? { text: line } : line));
  return { length: all.length, at: (index) => all[index] ?? { text: '' }, live };
}
const texts = (viewport: ReturnType<typeof buildViewport>) => viewport.rows.map((row) => row.text);
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index}`);

describe('buildViewport', () => {
  it('with a wrap cache: the same rows as without, long lines wrapped once per width', () => {
    const long = `${'wörd '.repeat(12)}end`;
    const lines = [long, 'short', long, `${'x'.repeat(30)}ünïcode fits`];
    const cache = createWrapCache();
    const cached = buildViewport(content(lines), 30, 20, 0, cache);
    expect(texts(cached)).toEqual(texts(buildViewport(content(lines), 30, 20, 0)));
    // The long line (twice on screen) and the one that only fits after measuring are kept; short ones are not.
    expect([...cache.wrapped.keys()].sort()).toEqual([lines[3], long].sort());
    expect(texts(buildViewport(content(lines), 30, 20, 0, cache))).toEqual(texts(cached));

    const narrower = buildViewport(content(lines), 20, 20, 0, cache);
    expect(cache.width).toBe(20);
    expect(texts(narrower)).toEqual(texts(buildViewport(content(lines), 20, 20, 0)));
    for (const text of texts(narrower)) expect(stringWidth(text)).toBeLessThanOrEqual(20);
  });

  it('shows lines from top, and says whether the end is visible', () => {
    const lines = numbered(10);
    const first = buildViewport(content(lines), 20, 4, 0);
    expect(texts(first)).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
    expect(first).toMatchObject({ top: 0, atEnd: false });
    const last = buildViewport(content(lines), 20, 4, 6);
    expect(texts(last)).toEqual(['line 6', 'line 7', 'line 8', 'line 9']);
    expect(last.atEnd).toBe(true);
  });

  it('clamps top into the content', () => {
    const viewport = buildViewport(content(numbered(3)), 20, 5, 99);
    expect(viewport.top).toBe(2);
    expect(texts(viewport)).toEqual(['line 2']);
  });

  it('follow mode (top null) shows the end of the content', () => {
    const viewport = buildViewport(content(numbered(100), true), 20, 5, null);
    expect(texts(viewport)).toEqual(['line 95', 'line 96', 'line 97', 'line 98', 'line 99']);
    expect(viewport).toMatchObject({ top: 95, atEnd: true });
  });

  it('follow mode on short content shows all of it', () => {
    const viewport = buildViewport(content(numbered(2), true), 20, 5, null);
    expect(texts(viewport)).toEqual(['line 0', 'line 1']);
    expect(viewport.top).toBe(0);
  });

  it('wraps long lines by display width, counting wide characters as two columns', () => {
    const viewport = buildViewport(content(['abcdefghijklmnopqrstuvwxy', '日本語日本語日本語']), 10, 10, 0);
    expect(texts(viewport)).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxy', '日本語日本', '語日本語']);
    for (const row of viewport.rows) expect(stringWidth(row.text)).toBeLessThanOrEqual(10);
  });

  it('wrapped rows count against the height, in follow mode too', () => {
    const long = 'x'.repeat(25);
    const fromTop = buildViewport(content([long, 'after']), 10, 2, 0);
    expect(texts(fromTop)).toEqual(['xxxxxxxxxx', 'xxxxxxxxxx']);
    expect(fromTop.atEnd).toBe(false);
    const following = buildViewport(content(['before', long]), 10, 2, null);
    expect(texts(following)).toEqual(['xxxxxxxxxx', 'xxxxx']);
  });

  it('draws rule lines across the whole width', () => {
    const viewport = buildViewport(content(['a', { text: '', rule: true }, 'b']), 17, 5, 0);
    expect(viewport.rows[1]?.text).toBe('─'.repeat(17));
    expect(viewport.rows[1]?.line.rule).toBe(true);
  });

  it('keeps empty lines as one empty row', () => {
    expect(texts(buildViewport(content(['a', '', 'b']), 10, 5, 0))).toEqual(['a', '', 'b']);
  });

  it('sanitizes control characters so agent output cannot drive the terminal', () => {
    const viewport = buildViewport(content(['\u001b[2J\u001b]0;pwned\u0007text\ttab']), 80, 5, 0);
    const [row] = texts(viewport);
    expect(hasControlCharacters(row ?? '')).toBe(false);
    expect(row).toContain('text    tab');
  });

  it('an empty content or no height gives no rows', () => {
    expect(buildViewport(content([]), 10, 5, null)).toEqual({ rows: [], top: 0, atEnd: true });
    expect(buildViewport(content(['a']), 10, 0, 0).rows).toEqual([]);
  });

  it('keeps the line style on each wrapped row', () => {
    const viewport = buildViewport(
      content([{ text: 'red '.repeat(10), color: 'red', bold: true }]),
      8,
      10,
      0,
    );
    expect(viewport.rows.length).toBeGreaterThan(1);
    for (const row of viewport.rows) expect(row.line).toMatchObject({ color: 'red', bold: true });
  });
});
