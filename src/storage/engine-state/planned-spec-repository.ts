import type { Database } from 'better-sqlite3';

export interface PlannedSpecRepository {
  /** Spec path → blob SHA last planned successfully. */
  load(): Record<string, string>;
  /** Upserts each path's SHA; paths not named are left as they are. */
  save(shas: Readonly<Record<string, string>>, at: number): void;
  /** Sets each of `paths` to its SHA in `shas`, removing those it has none for (a rejected plan's undo). */
  replace(paths: readonly string[], shas: Readonly<Record<string, string>>, at: number): void;
}

export function createPlannedSpecRepository(db: Database): PlannedSpecRepository {
  const selectAll = db.prepare<[], { spec_path: string; blob_sha: string }>(
    'SELECT spec_path, blob_sha FROM planned_specs ORDER BY spec_path',
  );
  const upsert = db.prepare(`
    INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES (?, ?, ?)
    ON CONFLICT (spec_path) DO UPDATE SET blob_sha = excluded.blob_sha, planned_at = excluded.planned_at
    WHERE planned_specs.blob_sha <> excluded.blob_sha
  `);
  const remove = db.prepare('DELETE FROM planned_specs WHERE spec_path = ?');
  return {
    load() {
      return Object.fromEntries(selectAll.all().map((row) => [row.spec_path, row.blob_sha]));
    },
    save(shas, at) {
      db.transaction(() => {
        for (const [path, sha] of Object.entries(shas)) upsert.run(path, sha, at);
      })();
    },
    replace(paths, shas, at) {
      db.transaction(() => {
        for (const path of paths) {
          const sha = shas[path];
          if (sha === undefined) remove.run(path);
          else upsert.run(path, sha, at);
        }
      })();
    },
  };
}
