import type { LimitReason, RuntimeParking } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

/** Parked runtimes and exhausted accounts (`runtime_parkings`), so a restart keeps waiting until the same time. */
export interface RuntimeParkingRepository {
  /** Makes the table hold exactly these parkings. */
  replaceAll(parkings: readonly RuntimeParking[]): void;
  /** Every stored parking, expired ones included (the engine ignores those). */
  list(): RuntimeParking[];
}

interface ParkingRow {
  key: string;
  runtime: string;
  account: string | null;
  reason: LimitReason;
  until_at: number;
  since_at: number;
  hits: number;
  message: string;
}

export function createRuntimeParkingRepository(target: SqlTarget): RuntimeParkingRepository {
  const sql = asSqlConnection(target);
  return {
    replaceAll(parkings) {
      sql.transaction(() => {
        sql.run('DELETE FROM runtime_parkings');
        for (const parking of parkings) {
          sql.run(
            `INSERT INTO runtime_parkings (key, runtime, account, reason, until_at, since_at, hits, message)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              parking.key,
              parking.runtime,
              parking.account,
              parking.reason,
              parking.until,
              parking.since,
              parking.hits,
              parking.message,
            ],
          );
        }
      });
    },
    list() {
      return sql.all<ParkingRow>('SELECT * FROM runtime_parkings ORDER BY key').map((row) => ({
        key: row.key,
        runtime: row.runtime,
        account: row.account,
        reason: row.reason,
        until: row.until_at,
        since: row.since_at,
        hits: row.hits,
        message: row.message,
      }));
    },
  };
}
