import { describe, expect, it } from 'vitest';
import { KEY_BINDINGS } from '../key-bindings.ts';
import { buildHelpContent } from './build-help-content.ts';

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
});
