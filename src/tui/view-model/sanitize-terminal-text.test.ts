import { describe, expect, it } from 'vitest';
import { hasControlCharacters } from '../../../test/support/tui/has-control-characters.ts';
import { sanitizeTerminalText } from './sanitize-terminal-text.ts';

describe('sanitizeTerminalText', () => {
  it('leaves ordinary and wide text alone', () => {
    expect(sanitizeTerminalText('hello — wörld 日本語 ✔')).toBe('hello — wörld 日本語 ✔');
  });
  it('turns tabs into four spaces', () => {
    expect(sanitizeTerminalText('a\tb')).toBe('a    b');
  });
  it('replaces escape sequences, carriage returns, bells and C1 controls with a placeholder', () => {
    const out = sanitizeTerminalText('\u001b[2Jred\u001b]0;title\u0007\rx\u009by\u007f');
    expect(hasControlCharacters(out)).toBe(false);
    expect(out).toBe('�[2Jred�]0;title��x�y�');
  });
  it('replaces newlines too (a single line stays a single line)', () => {
    expect(sanitizeTerminalText('a\nb')).toBe('a�b');
  });
});
