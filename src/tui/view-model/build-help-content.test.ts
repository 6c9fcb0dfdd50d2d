import { describe, expect, it } from 'vitest';
import type { ItemActionKey } from '../actions/build-item-actions.ts';
import { KEY_BINDINGS } from '../key-bindings.ts';
import { buildHelpContent } from './build-help-content.ts';

/** Every key the footer can offer for an item; a Record so a new ItemActionKey fails typecheck here. */
const ITEM_ACTION_KEYS: Record<ItemActionKey, true> = {
  d: true,
  r: true,
  x: true,
  u: true,
  m: true,
  v: true,
  l: true,
  c: true,
};

describe('buildHelpContent', () => {
  it('lists every key binding with its description after a title line', () => {
    const content = buildHelpContent();
    expect(content.length).toBe(KEY_BINDINGS.length + 1);
    expect(content.at(0).text).toContain('Esc');
    KEY_BINDINGS.forEach((binding, index) => {
      const text = content.at(index + 1).text;
      expect(text.startsWith(binding.keys)).toBe(true);
      expect(text.endsWith(binding.description)).toBe(true);
    });
    expect(content.live).toBe(false);
  });

  it('lists every key the footer offers for an item (v diff included)', () => {
    const content = buildHelpContent();
    const helpKeys = new Set(
      Array.from({ length: content.length - 1 }, (_, index) => content.at(index + 1).text).flatMap(
        (text) => text.split(/\s{2,}/)[0]?.split(' ') ?? [],
      ),
    );
    for (const key of Object.keys(ITEM_ACTION_KEYS)) {
      expect({ key, listed: helpKeys.has(key) }).toEqual({ key, listed: true });
    }
  });
});
