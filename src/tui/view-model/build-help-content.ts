import { KEY_BINDINGS } from '../key-bindings.ts';
import type { DetailContent, DetailLine } from './build-detail-content.ts';

/** The `?` overlay as scrollable content, so a short terminal can still reach every key. */
export function buildHelpContent(): DetailContent {
  const keyWidth = Math.max(...KEY_BINDINGS.map((binding) => binding.keys.length)) + 2;
  const lines: DetailLine[] = [
    { text: 'Keys — Esc, q or ? closes this', bold: true },
    ...KEY_BINDINGS.map((binding) => ({ text: `${binding.keys.padEnd(keyWidth)}${binding.description}` })),
  ];
  return { length: lines.length, at: (index) => lines[index] ?? { text: '' }, live: false };
}
