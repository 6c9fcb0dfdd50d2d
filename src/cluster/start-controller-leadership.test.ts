import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForCondition } from '../../test/support/start-flotilla-process.ts';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { silentLogger } from '../logging/logger.ts';
import { LeaseLostError } from './create-leader-lease.ts';
import { startControllerLeadership } from './start-controller-leadership.ts';

let postgres: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  await pool.query(
    'CREATE TABLE fenced_writes (id SERIAL PRIMARY KEY, who TEXT NOT NULL, token BIGINT NOT NULL)',
  );
}, 60_000);
afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

const rowsBy = async (who: string) =>
  (
    await pool.query<{ id: number; token: string }>('SELECT id, token FROM fenced_writes WHERE who = $1', [
      who,
    ])
  ).rows;

describe('controller leadership: a paused leader cannot write', () => {
  // Paused anywhere in its loop (mostly between writes), or inside a fenced write's transaction (each write
  // holds its fence 300 ms): the server ends that transaction after the grace, and the woken process must
  // fail that write and refuse the next ones — not die of the ended connection's error.
  it.each([
    { where: 'between writes', holdMs: 0 },
    { where: 'inside a fenced write', holdMs: 300 },
  ])(
    'a leader paused (SIGSTOP) $where past its lease is refused every write once another leads',
    async ({ holdMs }) => {
      await pool.query('TRUNCATE fenced_writes');
      await pool.query('DROP TABLE IF EXISTS flotilla_leases');
      const script = fileURLToPath(new URL('../../test/support/fenced-writer.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', script, postgres.url, '1', String(holdMs)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      let successor: ReturnType<typeof startControllerLeadership> | undefined;
      try {
        await waitForCondition(
          () => output.includes('elected 1'),
          30_000,
          'the first leader',
          () => output,
        );
        // It writes while it leads.
        const wroteWhileLeading = async () => (await rowsBy('paused-leader')).length > 0;
        for (let tries = 0; !(await wroteWhileLeading()); tries += 1) {
          if (tries > 600) throw new Error(`the leader never wrote\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        child.kill('SIGSTOP');
        successor = startControllerLeadership({
          databaseUrl: postgres.url,
          leaseTimeoutSeconds: 1,
          logger: silentLogger,
        });
        // The successor leads once the paused leader's lease lapsed (and its write in flight, if any, ended).
        expect(await successor.elected).toBe(2);
        const marker = await successor.fence(() =>
          pool.query<{ id: number }>(
            "INSERT INTO fenced_writes (who, token) VALUES ('successor', 2) RETURNING id",
          ),
        );
        const takeoverID = marker.rows[0]?.id ?? 0;
        output = '';
        child.kill('SIGCONT');
        await waitForCondition(
          () => output.includes('refused LeaseLostError'),
          30_000,
          'the woken leader to try a write',
          () => output,
        );
        // Nothing the stale leader attempted after the takeover was written, but for the one write a pause may
        // have caught after its fence's check (the fence cannot stop a write already past it: src/cluster/README.md,
        // Fencing — the writer's insert is on a connection of its own); its rows all carry token 1.
        const stale = await rowsBy('paused-leader');
        expect(stale.filter((row) => row.id > takeoverID).length).toBeLessThanOrEqual(1);
        expect(new Set(stale.map((row) => row.token))).toEqual(new Set(['1']));
        // The successor's own fence still writes.
        await successor.fence(() =>
          pool.query("INSERT INTO fenced_writes (who, token) VALUES ('successor', 2)"),
        );
        expect(await rowsBy('successor')).toHaveLength(2);
      } finally {
        child.kill('SIGKILL');
        await successor?.stop();
      }
    },
    90_000,
  );

  it('a leader deposed by a refused write (depose) stops leading: listeners told, every write refused', async () => {
    await pool.query('DROP TABLE IF EXISTS flotilla_leases');
    const leader = startControllerLeadership({
      databaseUrl: postgres.url,
      leaseTimeoutSeconds: 30,
      logger: silentLogger,
    });
    try {
      const token = await leader.elected;
      expect(leader.leading()).toBe(token);
      const deposed: number[] = [];
      leader.onDeposed((at) => deposed.push(at));
      leader.depose('a state write was refused');
      expect(deposed).toEqual([token]);
      expect(leader.leading()).toBeNull();
      await expect(leader.fence(async () => 'written')).rejects.toBeInstanceOf(LeaseLostError);
    } finally {
      await leader.stop();
    }
  });

  it('a process that does not lead is refused without a write', async () => {
    const follower = startControllerLeadership({
      databaseUrl: postgres.url,
      leaseTimeoutSeconds: 30,
      logger: silentLogger,
      holder: 'never-elected',
    });
    try {
      await expect(follower.fence(async () => 'written')).rejects.toBeInstanceOf(LeaseLostError);
    } finally {
      await follower.stop();
    }
  });
});
