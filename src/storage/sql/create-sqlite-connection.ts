import type { Database, Statement } from 'better-sqlite3';
import type { SqlConnection, SqlValue } from './sql-connection.ts';

/** The SQL port over an open better-sqlite3 database (one machine); statements prepared once per text. */
export function createSqliteConnection(db: Database): SqlConnection {
  const statements = new Map<string, Statement<SqlValue[]>>();
  const prepared = (sql: string): Statement<SqlValue[]> => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare<SqlValue[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    dialect: 'sqlite',
    name: db.name,
    run(sql, params = []) {
      prepared(sql).run(...params);
    },
    get<Row>(sql: string, params: readonly SqlValue[] = []) {
      return prepared(sql).get(...params) as Row | undefined;
    },
    all<Row>(sql: string, params: readonly SqlValue[] = []) {
      return prepared(sql).all(...params) as Row[];
    },
    // better-sqlite3 turns a nested transaction into a savepoint.
    transaction: (body) => db.transaction(body)(),
    close() {
      if (db.open) db.close();
    },
  };
}
