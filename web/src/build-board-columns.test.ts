import { describe, expect, it } from 'vitest';
import { buildWorkItem } from '../../test/support/shared/builders/index.ts';
import { type BoardRun, buildBoardColumns, DONE_SHOWN } from './build-board-columns.ts';
import { moveSelection } from './move-selection.ts';

const run = (workItemID: string, status: string, role = 'implementor'): BoardRun => ({
  sessionID: `${workItemID}-${status}`,
  role,
  status,
  workItemID,
  costUSD: null,
});

const ids = (columns: ReturnType<typeof buildBoardColumns>) =>
  Object.fromEntries(columns.map((column) => [column.id, column.cards.map((card) => card.item.id)]));

describe('buildBoardColumns', () => {
  it('puts every status in its column, by priority then id', () => {
    const items = [
      buildWorkItem({ id: '10', status: 'pending', priority: 'low' }),
      buildWorkItem({ id: '9', status: 'ready', priority: 'high' }),
      buildWorkItem({ id: '2', status: 'in-progress' }),
      buildWorkItem({ id: '3', status: 'review' }),
      buildWorkItem({ id: '4', status: 'waiting-for-input' }),
      buildWorkItem({ id: '5', status: 'blocked' }),
      buildWorkItem({ id: '6', status: 'needs-refinement' }),
      buildWorkItem({ id: '7', status: 'approved' }),
      buildWorkItem({ id: '8', status: 'closed' }),
    ];
    expect(ids(buildBoardColumns(items, []))).toEqual({
      pending: ['9', '10'],
      'in-progress': ['2'],
      review: ['3'],
      waiting: ['4', '5', '6'],
      approved: ['7'],
      done: ['8'],
    });
  });

  it('badges the newest run: running shows its role, failed only until a human moved the item on', () => {
    const items = [
      buildWorkItem({ id: '1', status: 'in-progress' }),
      buildWorkItem({ id: '2', status: 'review' }),
      buildWorkItem({ id: '3', status: 'in-progress' }),
      buildWorkItem({ id: '4', status: 'pending' }),
    ];
    const runs = [
      run('1', 'running'),
      run('2', 'running', 'reviewer'),
      run('3', 'failed'),
      run('4', 'failed'),
      run('1', 'failed'),
    ];
    const badges = buildBoardColumns(items, runs)
      .flatMap((column) => column.cards)
      .map((card) => [card.item.id, card.badge]);
    expect(Object.fromEntries(badges)).toEqual({
      '1': 'implementing',
      '2': 'reviewing',
      '3': 'failed',
      '4': null,
    });
  });

  it('keeps the newest closed items only, counting the rest', () => {
    const closed = Array.from({ length: DONE_SHOWN + 3 }, (_, index) =>
      buildWorkItem({ id: String(index + 1), status: 'closed' }),
    );
    const done = buildBoardColumns(closed, []).find((column) => column.id === 'done');
    expect(done?.cards[0]?.item.id).toBe(String(DONE_SHOWN + 3));
    expect(done?.cards).toHaveLength(DONE_SHOWN);
    expect(done?.hidden).toBe(3);
  });
});

describe('moveSelection', () => {
  const columns = buildBoardColumns(
    [
      buildWorkItem({ id: '1', status: 'pending' }),
      buildWorkItem({ id: '2', status: 'pending' }),
      buildWorkItem({ id: '3', status: 'review' }),
    ],
    [],
  );

  it('starts at the first card and moves within a column, stopping at its ends', () => {
    expect(moveSelection(columns, null, null)).toBe('1');
    expect(moveSelection(columns, '1', 'down')).toBe('2');
    expect(moveSelection(columns, '2', 'down')).toBe('2');
    expect(moveSelection(columns, '2', 'up')).toBe('1');
  });

  it('skips empty columns sideways, landing on the same row or the last', () => {
    expect(moveSelection(columns, '2', 'right')).toBe('3');
    expect(moveSelection(columns, '3', 'left')).toBe('1');
    expect(moveSelection(columns, '3', 'right')).toBe('3');
  });

  it('falls back to the first card when the selected item is gone', () => {
    expect(moveSelection(columns, '99', 'down')).toBe('1');
  });
});
