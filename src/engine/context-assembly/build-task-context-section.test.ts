import { describe, expect, it } from 'vitest';
import type { TaskContextEntry } from '../../domain/index.ts';
import { buildTaskContextSection, SHORTENED_SUMMARY_CHARS } from './build-task-context-section.ts';

function entry(index: number, summary = `summary ${index}`): TaskContextEntry {
  return {
    id: `s${index}:implementation_summary`,
    workItemID: '7',
    sessionID: `s${index}`,
    role: 'implementor',
    runtime: 'claude',
    type: 'implementation_summary',
    summary,
    data: {},
    createdAt: Date.UTC(2026, 0, 1, 0, index),
  };
}

describe('buildTaskContextSection', () => {
  it('is empty without entries', () => {
    expect(buildTaskContextSection([])).toBe('');
  });

  it('lists every entry oldest first with its source, type, time and run, and the files it changed', () => {
    const section = buildTaskContextSection([
      { ...entry(1), data: { files: ['src/a.ts', 'src/b.ts'] } },
      { ...entry(2), role: 'reviewer', runtime: null, type: 'review_feedback', summary: 'rename x' },
    ]);
    expect(section).toBe(
      [
        '## Task context',
        '',
        'What earlier runs on this item did, oldest first:',
        '',
        '### [implementor · claude] implementation_summary — 2026-01-01T00:01:00.000Z (run s1)',
        'summary 1',
        'Files: src/a.ts, src/b.ts',
        '',
        '### [reviewer] review_feedback — 2026-01-01T00:02:00.000Z (run s2)',
        'rename x',
      ].join('\n'),
    );
  });

  it('keeps the newest whole, shortens older ones and says how many of the oldest were left out', () => {
    const long = (index: number) => entry(index, `<${index}>${'x'.repeat(1990)}`);
    const entries = Array.from({ length: 40 }, (_, index) => long(index));
    const section = buildTaskContextSection(entries, 8_000);
    expect(section.length).toBeLessThanOrEqual(8_000);
    // The newest is whole.
    expect(section).toContain(entries[39]?.summary);
    const shortened = section.match(/… \(shortened\)/g) ?? [];
    expect(shortened.length).toBeGreaterThan(0);
    const whole = entries.filter((item) => section.includes(item.summary)).length;
    const note = section.match(/\((\d+) older entries left out to fit the prompt's budget/);
    expect(note).not.toBeNull();
    // Every entry is accounted for: whole, shortened or counted as left out.
    expect(whole + shortened.length + Number(note?.[1])).toBe(40);
    // The left-out ones are the oldest, and the order stays oldest first.
    const left = Number(note?.[1]);
    expect(section).not.toContain(`(run s${left - 1})`);
    expect(section).toContain(`(run s${left})`);
    expect(section.indexOf(`(run s${left})`)).toBeLessThan(section.indexOf('(run s39)'));
    expect(section).toContain(`<${left}>${'x'.repeat(SHORTENED_SUMMARY_CHARS - String(left).length - 2)}…`);
  });

  it('keeps the newest whole even when it alone is over the budget, and counts the rest', () => {
    const section = buildTaskContextSection([entry(1), entry(2, 'y'.repeat(2000))], 500);
    expect(section).toContain('y'.repeat(2000));
    expect(section).toContain('(1 older entry left out');
    expect(section).not.toContain('(run s1)');
  });
});
