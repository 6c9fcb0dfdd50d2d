import pg from 'pg';
import { messageOf } from '../shared/message-of.ts';

/** Connects once and asks `SELECT 1` (5 s at most): null when PostgreSQL answers, else what went wrong. */
export async function probeClusterDatabase(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return messageOf(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}
