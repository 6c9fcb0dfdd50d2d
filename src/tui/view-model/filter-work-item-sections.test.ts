import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { buildWorkItemSections } from './build-work-item-sections.ts';
import { filterWorkItemSections } from './filter-work-item-sections.ts';

const state = buildTestState({
  workItems: [
    buildWorkItem({ id: '1', title: 'Add the login form', status: 'approved', priority: 'high' }),
    buildWorkItem({ id: '2', title: 'Fix LOGIN redirect', status: 'ready', priority: 'low' }),
    buildWorkItem({ id: '12', title: 'Document the API', status: 'pending', priority: 'high' }),
    buildWorkItem({ id: '120', title: 'Refine the spec', status: 'needs-refinement', kind: 'refinement' }),
  ],
  agentRuns: [buildImplementorRun({ sessionID: 's2', workItemID: '2', status: 'failed' })],
});
const sections = buildWorkItemSections(state);

const matches = (query: string) =>
  filterWorkItemSections(sections, query).flatMap((section) => section.rows.map((row) => row.item.id));

describe('filterWorkItemSections', () => {
  it('keeps every row for a blank query', () => {
    expect(filterWorkItemSections(sections, '  ')).toBe(sections);
    expect(matches('')).toEqual(sections.flatMap((section) => section.rows.map((row) => row.item.id)));
  });

  it('matches the title case-insensitively', () => {
    expect(matches('login').sort()).toEqual(['1', '2']);
  });

  it('matches #id as a prefix of the id', () => {
    expect(matches('#12').sort()).toEqual(['12', '120']);
    expect(matches('#2')).toEqual(['2']);
  });

  it('matches the display status, the kind and the priority, every word required', () => {
    expect(matches('failed')).toEqual(['2']);
    expect(matches('refinement')).toEqual(['120']);
    expect(matches('high')).toEqual(expect.arrayContaining(['1', '12']));
    expect(matches('high document')).toEqual(['12']);
    expect(matches('login nothing-like-this')).toEqual([]);
  });

  it('keeps the three sections, empty when nothing in them matches', () => {
    const filtered = filterWorkItemSections(sections, 'no such item');
    expect(filtered.map((section) => [section.key, section.rows.length])).toEqual([
      ['action', 0],
      ['agents', 0],
      ['backlog', 0],
    ]);
  });
});
