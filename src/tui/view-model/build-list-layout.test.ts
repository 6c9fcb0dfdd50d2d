import { describe, expect, it } from 'vitest';
import { buildWorkItem } from '../../../test/support/shared/builders/index.ts';
import { buildListLayout, type SectionLayout } from './build-list-layout.ts';
import type { SectionKey, WorkItemRow, WorkItemSection } from './build-work-item-sections.ts';

function section(key: SectionKey, count: number, prefix = key): WorkItemSection {
  const rows: WorkItemRow[] = Array.from({ length: count }, (_, index) => ({
    item: buildWorkItem({ id: `${prefix}-${index}` }),
    displayStatus: 'pending',
    latestRun: null,
    queued: null,
    revision: null,
  }));
  return { key, title: key.toUpperCase(), rows };
}

const usedRows = (layout: SectionLayout[]) => layout.reduce((sum, part) => sum + 1 + part.rows.length, 0);
const visibleIDs = (layout: SectionLayout[]) => layout.flatMap((part) => part.rows.map((row) => row.item.id));

describe('buildListLayout', () => {
  it('gives small sections all their rows before a 500-row backlog takes the rest', () => {
    const sections = [section('action', 2), section('agents', 3), section('backlog', 500)];
    const layout = buildListLayout(sections, null, 20, {});
    expect(layout.map((part) => [part.key, part.rows.length, part.total, part.start])).toEqual([
      ['action', 2, 2, 0],
      ['agents', 3, 3, 0],
      ['backlog', 12, 500, 0],
    ]);
    expect(usedRows(layout)).toBe(20);
  });

  it('shares rows evenly between sections that all have more than fits', () => {
    const sections = [section('action', 100), section('agents', 100), section('backlog', 100)];
    const layout = buildListLayout(sections, null, 18, {});
    expect(layout.map((part) => part.rows.length)).toEqual([5, 5, 5]);
  });

  it('empty sections keep their header and no rows', () => {
    const sections = [section('action', 0), section('agents', 0), section('backlog', 4)];
    const layout = buildListLayout(sections, null, 20, {});
    expect(layout.map((part) => part.rows.length)).toEqual([0, 0, 4]);
    expect(usedRows(layout)).toBe(7);
  });

  it('never uses more rows than it is given, and shows the selection, at every height from 6 up', () => {
    const sections = [section('action', 4), section('agents', 7), section('backlog', 60)];
    for (let height = 6; height <= 40; height += 1) {
      for (const selected of ['action-3', 'agents-6', 'backlog-0', 'backlog-59']) {
        const layout = buildListLayout(sections, selected, height, {});
        expect(usedRows(layout)).toBeLessThanOrEqual(height);
        expect(visibleIDs(layout)).toContain(selected);
        for (const part of layout) expect(part.rows.length).toBeGreaterThan(0);
      }
    }
  });

  it('scrolls down just enough to keep the selection visible, and back up when it moves above', () => {
    const sections = [section('action', 0), section('agents', 0), section('backlog', 500)];
    // 3 headers, 10 backlog rows.
    const starts: Partial<Record<SectionKey, number>> = {};
    const step = (selected: string) => {
      const layout = buildListLayout(sections, selected, 13, starts);
      for (const part of layout) starts[part.key] = part.start;
      return layout[2] as SectionLayout;
    };
    expect(step('backlog-9').start).toBe(0);
    expect(step('backlog-10').start).toBe(1);
    expect(step('backlog-30').start).toBe(21);
    // Moving up inside the visible window does not scroll.
    expect(step('backlog-25').start).toBe(21);
    expect(step('backlog-21').start).toBe(21);
    expect(step('backlog-20').start).toBe(20);
    expect(step('backlog-0').start).toBe(0);
    const last = step('backlog-499');
    expect(last.start).toBe(490);
    expect(last.rows.map((row) => row.item.id).at(-1)).toBe('backlog-499');
  });

  it('clamps a previous start past the end when the section shrank', () => {
    const sections = [section('action', 0), section('agents', 0), section('backlog', 12)];
    const layout = buildListLayout(sections, null, 13, { backlog: 400 });
    expect(layout[2]?.start).toBe(2);
    expect(layout[2]?.rows).toHaveLength(10);
  });

  it('with the smallest height that fits, each non-empty section shows one row', () => {
    const sections = [section('action', 3), section('agents', 3), section('backlog', 3)];
    const layout = buildListLayout(sections, 'agents-2', 6, {});
    expect(layout.map((part) => part.rows.map((row) => row.item.id))).toEqual([
      ['action-0'],
      ['agents-2'],
      ['backlog-0'],
    ]);
  });
});

describe('buildListLayout on a list shorter than every header plus a row each', () => {
  it("keeps the selected section's row and drops rows of the others", () => {
    const sections = [section('action', 1), section('agents', 1), section('backlog', 1)];
    const layout = buildListLayout(sections, 'backlog-0', 4, {});
    expect(layout.map((entry) => entry.rows.map((row) => row.item.id))).toEqual([[], [], ['backlog-0']]);
  });
});
