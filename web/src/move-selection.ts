import type { BoardColumn } from './build-board-columns.ts';

export type SelectionMove = 'up' | 'down' | 'left' | 'right';

/**
 * The card selected after a key: up/down within the column (stopping at its ends), left/right to the
 * nearest column that has cards, at the same row or its last. Nothing selected (or the item gone): the first
 * card of the board. The selection follows the item id, so a card moving column keeps it.
 */
export function moveSelection(
  columns: readonly BoardColumn[],
  selectedID: string | null,
  move: SelectionMove | null,
): string | null {
  let column = -1;
  let row = -1;
  columns.forEach((candidate, index) => {
    const at = candidate.cards.findIndex((card) => card.item.id === selectedID);
    if (at >= 0) {
      column = index;
      row = at;
    }
  });
  if (column < 0) return columns.find((candidate) => candidate.cards.length > 0)?.cards[0]?.item.id ?? null;
  const cards = columns[column]?.cards ?? [];
  if (move === 'up') return cards[Math.max(0, row - 1)]?.item.id ?? selectedID;
  if (move === 'down') return cards[Math.min(cards.length - 1, row + 1)]?.item.id ?? selectedID;
  if (move === 'left' || move === 'right') {
    const step = move === 'left' ? -1 : 1;
    for (let next = column + step; next >= 0 && next < columns.length; next += step) {
      const target = columns[next]?.cards ?? [];
      if (target.length > 0) return target[Math.min(row, target.length - 1)]?.item.id ?? selectedID;
    }
  }
  return selectedID;
}
