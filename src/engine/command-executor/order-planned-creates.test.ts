import { describe, expect, it } from 'vitest';
import type { PlannedWorkItem } from '../../domain/index.ts';
import { orderPlannedCreates } from './order-planned-creates.ts';

function create(tempID: string, blockedBy: string[] = []): PlannedWorkItem {
  return { tempID, title: tempID, body: '', labels: [], blockedBy };
}

describe('orderPlannedCreates', () => {
  it('keeps array order when no create names a later one', () => {
    const result = orderPlannedCreates([create('a'), create('b', ['a'])], new Set());
    expect(result.ok && result.order.map((c) => c.tempID)).toEqual(['a', 'b']);
  });

  it('creates a blocker named later in the list first', () => {
    const result = orderPlannedCreates(
      [create('b', ['a']), create('c', ['b', '7']), create('a')],
      new Set(['7']),
    );
    expect(result.ok && result.order.map((c) => c.tempID)).toEqual(['a', 'b', 'c']);
  });

  it('rejects a reference that is neither a tempID nor an existing item', () => {
    const result = orderPlannedCreates([create('a', ['99'])], new Set(['1']));
    expect(result).toEqual({ ok: false, error: expect.stringContaining("blocked by '99'") });
  });

  it('rejects a dependency cycle and names it', () => {
    const result = orderPlannedCreates([create('a', ['b']), create('b', ['a'])], new Set());
    expect(result).toEqual({ ok: false, error: 'dependency cycle between planned items: a → b → a' });
  });

  it('rejects duplicate tempIDs', () => {
    const result = orderPlannedCreates([create('a'), create('a')], new Set());
    expect(result).toEqual({ ok: false, error: "duplicate tempID 'a' in create" });
  });
});
