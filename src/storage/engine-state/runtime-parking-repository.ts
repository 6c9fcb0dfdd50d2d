import type { Database } from 'better-sqlite3';
import type { LimitReason, RuntimeParking } from '../../domain/index.ts';

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

export function createRuntimeParkingRepository(db: Database): RuntimeParkingRepository {
  const clear = db.prepare('DELETE FROM runtime_parkings');
  const insert = db.prepare(`
    INSERT INTO runtime_parkings (key, runtime, account, reason, until_at, since_at, hits, message)
    VALUES (@key, @runtime, @account, @reason, @until_at, @since_at, @hits, @message)
  `);
  const selectAll = db.prepare<[], ParkingRow>('SELECT * FROM runtime_parkings ORDER BY key');
  return {
    replaceAll(parkings) {
      clear.run();
      for (const parking of parkings) {
        insert.run({
          key: parking.key,
          runtime: parking.runtime,
          account: parking.account,
          reason: parking.reason,
          until_at: parking.until,
          since_at: parking.since,
          hits: parking.hits,
          message: parking.message,
        });
      }
    },
    list() {
      return selectAll.all().map((row) => ({
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
