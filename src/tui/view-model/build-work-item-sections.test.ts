import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPipeline,
  buildPlannerRun,
  buildReviewerRun,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import type { WorkItem } from '../../domain/index.ts';
import type { QueuedDispatch } from '../../engine/state-store/index.ts';
import { buildWorkItemSections, compareIDs } from './build-work-item-sections.ts';

const ids = (state: ReturnType<typeof buildTestState>) =>
  Object.fromEntries(
    buildWorkItemSections(state).map((section) => [section.key, section.rows.map((row) => row.item.id)]),
  );

const queued = (workItemID: string): QueuedDispatch => ({
  key: `implementor:${workItemID}`,
  command: { type: 'requestImplementorRun', workItemID },
  reason: 'capacity',
  notBefore: null,
  priority: 1,
  queuedAt: 0,
});

describe('buildWorkItemSections', () => {
  it('returns the three sections in order with their titles, even when empty', () => {
    const sections = buildWorkItemSections(buildTestState());
    expect(sections.map((section) => [section.key, section.title, section.rows.length])).toEqual([
      ['action', 'NEEDS YOU', 0],
      ['agents', 'AGENTS', 0],
      ['backlog', 'BACKLOG', 0],
    ]);
  });

  it('puts each item in the section its display status belongs to and hides closed items', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'approved' }),
        buildWorkItem({ id: '2', status: 'blocked' }),
        buildWorkItem({ id: '3', status: 'needs-refinement' }),
        buildWorkItem({ id: '4', status: 'ready' }),
        buildWorkItem({ id: '5', status: 'in-progress' }),
        buildWorkItem({ id: '6', status: 'ready' }),
        buildWorkItem({ id: '7', status: 'pending' }),
        buildWorkItem({ id: '8', status: 'closed' }),
        buildWorkItem({ id: '9', status: 'ready' }),
        buildWorkItem({ id: '10', status: 'review' }),
      ],
      agentRuns: [
        buildImplementorRun({ sessionID: 's5', workItemID: '5' }),
        buildImplementorRun({ sessionID: 's9', workItemID: '9', status: 'failed' }),
        buildReviewerRun({ sessionID: 's10', workItemID: '10', status: 'requested' }),
      ],
      dispatchQueue: [queued('6')],
    });
    expect(ids(state)).toEqual({
      action: ['1', '9', '2', '3'],
      agents: ['5', '10', '6'],
      backlog: ['4', '7'],
    });
  });

  it('uses the newest implementor or reviewer run of an item and ignores planner runs', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'ready' })],
      agentRuns: [
        buildImplementorRun({ sessionID: 'old', workItemID: '1', status: 'failed', requestedAt: 1 }),
        buildImplementorRun({ sessionID: 'new', workItemID: '1', status: 'cancelled', requestedAt: 2 }),
        buildPlannerRun({ sessionID: 'planner', requestedAt: 3 }),
      ],
    });
    const [row] = buildWorkItemSections(state).flatMap((section) => section.rows);
    expect(row?.latestRun?.sessionID).toBe('new');
    expect(row?.displayStatus).toBe('dispatch');
  });

  it('sorts by status weight, then priority, then id (numeric ids in numeric order)', () => {
    const item = (id: string, overrides: Partial<WorkItem>) => buildWorkItem({ id, ...overrides });
    const state = buildTestState({
      workItems: [
        item('10', { status: 'ready' }),
        item('2', { status: 'ready' }),
        item('33', { status: 'pending', priority: 'high' }),
        item('7', { status: 'ready', priority: 'low' }),
        item('8', { status: 'ready', priority: 'high' }),
        item('9', { status: 'ready', priority: 'medium' }),
        item('1', { status: 'pending' }),
      ],
    });
    // dispatch (50) before pending (40); inside: high, medium, low, none; then #2 before #10.
    expect(ids(state).backlog).toEqual(['8', '9', '7', '2', '10', '33', '1']);
  });

  it('in NEEDS YOU, approved comes before failed, blocked and needs-refinement', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'needs-refinement', priority: 'high' }),
        buildWorkItem({ id: '2', status: 'blocked', priority: 'high' }),
        buildWorkItem({ id: '3', status: 'approved' }),
        buildWorkItem({ id: '4', status: 'ready' }),
      ],
      agentRuns: [buildImplementorRun({ sessionID: 's4', workItemID: '4', status: 'timed-out' })],
    });
    expect(ids(state).action).toEqual(['3', '4', '2', '1']);
  });

  it('carries the linked revision and its pipeline status, null when unknown', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', status: 'review', linkedRevision: 'r1' }),
        buildWorkItem({ id: '2', status: 'review', linkedRevision: 'r2' }),
        buildWorkItem({ id: '3', status: 'review', linkedRevision: 'missing' }),
      ],
      revisions: [
        buildRevision({ id: 'r1', workItemID: '1', pipeline: buildPipeline('failure') }),
        buildRevision({ id: 'r2', workItemID: '2', pipeline: null }),
      ],
    });
    const rows = buildWorkItemSections(state).flatMap((section) => section.rows);
    const byID = Object.fromEntries(rows.map((row) => [row.item.id, row.revision]));
    expect(byID).toEqual({
      '1': { id: 'r1', pipeline: 'failure' },
      '2': { id: 'r2', pipeline: null },
      '3': null,
    });
  });

  it('attaches the queued dispatch of the item (planner requests are not items)', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', status: 'ready' })],
      dispatchQueue: [
        queued('1'),
        {
          key: 'planner',
          command: { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 'a1' } },
          reason: 'capacity',
          notBefore: null,
          priority: 0,
          queuedAt: 0,
        },
      ],
    });
    const rows = buildWorkItemSections(state).flatMap((section) => section.rows);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.queued?.key).toBe('implementor:1');
  });
});

describe('compareIDs', () => {
  it('orders numeric ids numerically and others as strings', () => {
    expect(['10', '2', '1', '100'].sort(compareIDs)).toEqual(['1', '2', '10', '100']);
    expect(['wi-10', 'wi-2', 'abc'].sort(compareIDs)).toEqual(['abc', 'wi-10', 'wi-2']);
    expect(compareIDs('02', '2')).toBeLessThan(0);
  });
});
