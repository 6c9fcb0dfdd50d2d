import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

export interface PlannedSpecRepository {
  /** Spec path → blob SHA last planned successfully. */
  load(): Record<string, string>;
  /** Upserts each path's SHA; paths not named are left as they are. */
  save(shas: Readonly<Record<string, string>>, at: number): void;
  /** Sets each of `paths` to its SHA in `shas`, removing those it has none for (a rejected plan's undo). */
  replace(paths: readonly string[], shas: Readonly<Record<string, string>>, at: number): void;
}

const UPSERT_PLANNED_SPEC = `
  INSERT INTO planned_specs (spec_path, blob_sha, planned_at) VALUES (?, ?, ?)
  ON CONFLICT (spec_path) DO UPDATE SET blob_sha = excluded.blob_sha, planned_at = excluded.planned_at
  WHERE planned_specs.blob_sha <> excluded.blob_sha
`;

export function createPlannedSpecRepository(target: SqlTarget): PlannedSpecRepository {
  const sql = asSqlConnection(target);
  const upsert = (path: string, sha: string, at: number) => sql.run(UPSERT_PLANNED_SPEC, [path, sha, at]);
  return {
    load() {
      const rows = sql.all<{ spec_path: string; blob_sha: string }>(
        'SELECT spec_path, blob_sha FROM planned_specs ORDER BY spec_path',
      );
      return Object.fromEntries(rows.map((row) => [row.spec_path, row.blob_sha]));
    },
    save(shas, at) {
      sql.transaction(() => {
        for (const [path, sha] of Object.entries(shas)) upsert(path, sha, at);
      });
    },
    replace(paths, shas, at) {
      sql.transaction(() => {
        for (const path of paths) {
          const sha = shas[path];
          if (sha === undefined) sql.run('DELETE FROM planned_specs WHERE spec_path = ?', [path]);
          else upsert(path, sha, at);
        }
      });
    },
  };
}
