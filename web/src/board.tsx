import { memo } from 'preact/compat';
import type { BoardCard, BoardColumn } from './build-board-columns.ts';

interface BoardProps {
  columns: readonly BoardColumn[];
  selectedID: string | null;
  onSelect(id: string): void;
  onOpen(id: string): void;
}

/** The columns side by side, each scrolling on its own; a click selects, a double click (or Enter) opens. */
export function Board({ columns, selectedID, onSelect, onOpen }: BoardProps) {
  return (
    <main class="board">
      {columns.map((column) => (
        <section class={`column column-${column.id}`} key={column.id} data-column={column.id}>
          <h2>
            <span class="name">{column.title}</span>{' '}
            <span class="count">{column.cards.length + column.hidden}</span>
          </h2>
          <div class="cards" role="listbox" aria-label={column.title}>
            {column.cards.map((card) => (
              <Card
                key={card.item.id}
                card={card}
                selected={card.item.id === selectedID}
                onSelect={onSelect}
                onOpen={onOpen}
              />
            ))}
          </div>
          {column.hidden > 0 && <p class="hidden-count">+{column.hidden} older</p>}
        </section>
      ))}
    </main>
  );
}

interface CardProps {
  card: BoardCard;
  selected: boolean;
  onSelect(id: string): void;
  onOpen(id: string): void;
}

const Card = memo(function CardView({ card, selected, onSelect, onOpen }: CardProps) {
  const { item, badge } = card;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the board's keys are global (app.tsx: j/k/h/l, Enter)
    <div
      role="option"
      tabIndex={-1}
      class={`card${selected ? ' selected' : ''}`}
      data-item={item.id}
      data-status={item.status}
      aria-selected={selected}
      onClick={() => onSelect(item.id)}
      onDblClick={() => onOpen(item.id)}
      ref={(element) => {
        if (selected && element) element.scrollIntoView({ block: 'nearest' });
      }}
    >
      <div class="card-head">
        <span class={`id priority-${item.priority ?? 'none'}`}>#{item.id}</span>
        <span class="status">{item.status}</span>
        {badge && <span class={`badge badge-${badge}`}>{badge}</span>}
      </div>
      <div class="title">{item.title}</div>
    </div>
  );
});
