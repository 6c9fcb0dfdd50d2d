import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

/** The body versions refined per work item (migration 018; the engine's `refinedBodies`). */
export interface RefinedBodyRepository {
  /** Work item id → its refined body versions, oldest first. */
  load(): Record<string, string[]>;
  /** Records each version of `bodyHashes` for the item; versions already recorded are left as they are. */
  save(workItemID: string, bodyHashes: readonly string[], at: number): void;
}

const INSERT_REFINED_BODY = `
  INSERT INTO refined_bodies (work_item_id, body_hash, refined_at) VALUES (?, ?, ?)
  ON CONFLICT (work_item_id, body_hash) DO NOTHING
`;

export function createRefinedBodyRepository(target: SqlTarget): RefinedBodyRepository {
  const sql = asSqlConnection(target);
  return {
    load() {
      const rows = sql.all<{ work_item_id: string; body_hash: string }>(
        'SELECT work_item_id, body_hash FROM refined_bodies ORDER BY work_item_id, refined_at, body_hash',
      );
      const byItem: Record<string, string[]> = {};
      for (const row of rows) byItem[row.work_item_id] = [...(byItem[row.work_item_id] ?? []), row.body_hash];
      return byItem;
    },
    save(workItemID, bodyHashes, at) {
      sql.transaction(() => {
        for (const hash of bodyHashes) sql.run(INSERT_REFINED_BODY, [workItemID, hash, at]);
      });
    },
  };
}
