import { describe, expect, it } from 'vitest';
import { STATS_OVERLAY_TITLE } from '../input/dashboard-input-state.ts';
import { KEY_BINDINGS } from '../key-bindings.ts';
import { buildHelpContent } from './build-help-content.ts';
import { buildOverlayContent } from './build-overlay-content.ts';

const textOf = (content: ReturnType<typeof buildOverlayContent>) =>
  Array.from({ length: content.length }, (_, index) => content.at(index).text);

describe('buildOverlayContent', () => {
  it('the help overlay is the help content', () => {
    expect(textOf(buildOverlayContent({ kind: 'help' }))).toEqual(textOf(buildHelpContent()));
  });

  it('fetched lines come under a bold title line that says how to close it; never live', () => {
    const content = buildOverlayContent({
      kind: 'fetched',
      title: 'checks log /c.log',
      content: { status: 'ok', value: [{ text: 'one' }, { text: 'two', color: 'red' }] },
    });
    expect(textOf(content)).toEqual(['checks log /c.log — Esc closes', 'one', 'two']);
    expect(content.at(0).bold).toBe(true);
    expect(content.at(2).color).toBe('red');
    expect(content.live).toBe(false);
  });

  it('says loading…, or why the lines could not be read', () => {
    const loading = buildOverlayContent({
      kind: 'fetched',
      title: 'transcript /t',
      content: { status: 'loading' },
    });
    expect(textOf(loading)).toEqual(['transcript /t — Esc closes', 'loading…']);
    const failed = buildOverlayContent({
      kind: 'fetched',
      title: 'transcript /t',
      content: { status: 'error', message: 'ENOENT: /t' },
    });
    expect(textOf(failed)).toEqual(['transcript /t — Esc closes', 'cannot read transcript /t: ENOENT: /t']);
  });

  it('the stats overlay and the key list name the same closing keys', () => {
    const stats = buildOverlayContent({
      kind: 'fetched',
      title: STATS_OVERLAY_TITLE,
      content: { status: 'loading' },
    });
    const closers = / — (.+ closes)$/.exec(stats.at(0).text)?.[1];
    expect(closers).toBe('s or Esc closes');
    expect(KEY_BINDINGS.find((binding) => binding.keys === 's')?.description).toMatch(
      new RegExp(`; ${closers}$`),
    );
  });
});
