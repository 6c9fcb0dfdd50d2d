import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import type { DetailContent, DetailLine } from './build-detail-content.ts';
import { sanitizeTerminalText } from './sanitize-terminal-text.ts';

export interface ViewportRow {
  line: DetailLine;
  text: string;
}

/**
 * Wrapped forms of lines that did not fit, by text, for one width: a live stream shows the same lines frame
 * after frame, and measuring and wrapping them is most of what building a viewport costs. Cleared when the
 * width changes or it grows past MAX_CACHED_LINES.
 */
export interface WrapCache {
  width: number;
  wrapped: Map<string, string[]>;
}

const MAX_CACHED_LINES = 4_000;

export function createWrapCache(): WrapCache {
  return { width: 0, wrapped: new Map() };
}

export interface Viewport {
  rows: ViewportRow[];
  /** First content line shown. */
  top: number;
  /** Whether the last content line is visible. */
  atEnd: boolean;
}

/**
 * The rows a pane of `width`×`height` shows of `content`, starting at line `top`, or ending at the last
 * line when `top` is null (following a live stream). Only visible lines are wrapped, so a 10,000-line
 * stream costs what a screenful does.
 */
export function buildViewport(
  content: DetailContent,
  width: number,
  height: number,
  top: number | null,
  cache: WrapCache = createWrapCache(),
): Viewport {
  const wrapWidth = Math.max(1, width);
  if (cache.width !== wrapWidth || cache.wrapped.size > MAX_CACHED_LINES) {
    cache.width = wrapWidth;
    cache.wrapped.clear();
  }
  const wrap = (lineIndex: number): ViewportRow[] => {
    const line = content.at(lineIndex);
    if (line.rule) return [{ line, text: '─'.repeat(wrapWidth) }];
    const text = sanitizeTerminalText(line.text);
    if (text === '') return [{ line, text: '' }];
    // Most lines fit, and wrap-ansi measures every word and character (~0.5 ms for an 80-column line with
    // one non-ASCII character): a line at most half as long as the width fits (no character is wider than
    // two columns), and measuring it once costs a fraction of wrapping it.
    if (text.length * 2 <= wrapWidth) return [{ line, text }];
    let parts = cache.wrapped.get(text);
    if (parts === undefined) {
      parts =
        stringWidth(text) <= wrapWidth
          ? [text]
          : wrapAnsi(text, wrapWidth, { hard: true, trim: false }).split('\n');
      cache.wrapped.set(text, parts);
    }
    return parts.map((part) => ({ line, text: part }));
  };
  if (height <= 0 || content.length === 0) return { rows: [], top: 0, atEnd: true };

  if (top === null) {
    const rows: ViewportRow[] = [];
    let first = content.length;
    while (first > 0 && rows.length < height) {
      first -= 1;
      rows.unshift(...wrap(first));
    }
    return { rows: rows.slice(Math.max(0, rows.length - height)), top: first, atEnd: true };
  }

  const start = Math.max(0, Math.min(top, content.length - 1));
  const rows: ViewportRow[] = [];
  let index = start;
  while (index < content.length && rows.length < height) {
    rows.push(...wrap(index));
    index += 1;
  }
  return { rows: rows.slice(0, height), top: start, atEnd: index >= content.length && rows.length <= height };
}
