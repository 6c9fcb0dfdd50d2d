import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { silentLogger } from '../logging/logger.ts';
import { createLeaderElection } from './create-leader-election.ts';
import { createLeaderLease, LeaseLostError } from './create-leader-lease.ts';

let postgres: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 6 });
  await pool.query('CREATE TABLE writes (who TEXT NOT NULL)');
}, 60_000);
afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let leaseCount = 0;
/** Two contenders for a lease of their own (each test has a fresh name). */
function contenders(ttlMs: number) {
  leaseCount += 1;
  const name = `controller-${leaseCount}`;
  return {
    name,
    a: createLeaderLease({ pool, name, holder: 'machine-a', ttlMs }),
    b: createLeaderLease({ pool, name, holder: 'machine-b', ttlMs }),
  };
}

/** Tries until `lease` is taken (the other holder's lapses), up to a generous deadline. */
async function acquireEventually(lease: ReturnType<typeof createLeaderLease>): Promise<number> {
  for (let tries = 0; tries < 200; tries += 1) {
    const token = await lease.tryAcquire();
    if (token !== null) return token;
    await sleep(50);
  }
  throw new Error('the lease was never taken');
}

const writesBy = async (who: string) =>
  Number((await pool.query('SELECT count(*) AS n FROM writes WHERE who = $1', [who])).rows[0].n);

describe('the controller lease (PostgreSQL, fencing token)', () => {
  it('has one holder at a time; the holder keeps its token, a new holder gets the next one', async () => {
    const { a, b } = contenders(60_000);
    expect(await a.tryAcquire()).toBe(1);
    expect(await b.tryAcquire()).toBeNull();
    expect(await a.tryAcquire()).toBe(1);
    expect(await a.renew(1)).toBe(true);
    await a.release(1);
    expect(await b.tryAcquire()).toBe(2);
    expect(await a.renew(1)).toBe(false);
  });

  it('a paused leader whose lease lapsed and was taken can neither renew nor write', async () => {
    const { a, b } = contenders(300);
    const first = await a.tryAcquire();
    expect(first).toBe(1);
    // a "pauses" (no renewal); b takes over once the lease lapses in the database's time.
    const second = await acquireEventually(b);
    expect(second).toBe(2);
    await expect(
      a.withFence(1, (client) => client.query("INSERT INTO writes VALUES ('stale-a')")),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await writesBy('stale-a')).toBe(0);
    expect(await a.renew(1)).toBe(false);
    await b.withFence(2, (client) => client.query("INSERT INTO writes VALUES ('leader-b')"));
    expect(await writesBy('leader-b')).toBe(1);
  });

  it("the holder's renewals go on during a fenced write (a write longer than the lease keeps it)", async () => {
    const { a, b } = contenders(60_000);
    const token = (await a.tryAcquire()) ?? 0;
    const renewed: boolean[] = [];
    await a.withFence(token, async (client) => {
      // On another connection while the fence's transaction holds the row: not blocked by it.
      renewed.push(await a.renew(token));
      await client.query("INSERT INTO writes VALUES ('long-a')");
    });
    expect(renewed).toEqual([true]);
    expect(await writesBy('long-a')).toBe(1);
    expect(await b.tryAcquire()).toBeNull();
  }, 20_000);

  it('a takeover waits for the fenced write in flight to commit', async () => {
    const { a, b } = contenders(200);
    const token = await a.tryAcquire();
    const order: string[] = [];
    const write = a.withFence(token ?? 0, async (client) => {
      await sleep(700); // the lease lapses meanwhile
      await client.query("INSERT INTO writes VALUES ('in-flight-a')");
      order.push('a wrote');
    });
    await sleep(400);
    const takeover = acquireEventually(b).then((next) => {
      order.push(`b took token ${next}`);
    });
    await Promise.all([write, takeover]);
    expect(order).toEqual(['a wrote', 'b took token 2']);
    expect(await writesBy('in-flight-a')).toBe(1);
  });

  it('a write held past the grace is ended by the server and fails closed, the process unharmed', async () => {
    // The server ends the fence's transaction while it is idle (a paused or slow write): the connection's
    // error arrives with no query running; it must reject this write, not crash the process.
    const { name } = contenders(60_000);
    const a = createLeaderLease({ pool, name, holder: 'machine-a', ttlMs: 60_000, writeGraceMs: 1000 });
    const token = (await a.tryAcquire()) ?? 0;
    await expect(
      a.withFence(token, async (client) => {
        await client.query("INSERT INTO writes VALUES ('ended-a')");
        await sleep(2500);
      }),
    ).rejects.toThrow(/terminat|not queryable|idle-in-transaction/i);
    expect(await writesBy('ended-a')).toBe(0);
    // The ended connection went back to no one: the next fenced write gets a working one.
    await a.withFence(token, (client) => client.query("INSERT INTO writes VALUES ('after-a')"));
    expect(await writesBy('after-a')).toBe(1);
  }, 20_000);
});

describe('the controller election', () => {
  it('replaces a controller killed with kill -9 once its lease lapses', async () => {
    const script = fileURLToPath(new URL('../../test/support/hold-controller-lease.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, postgres.url, '1000', '100'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const elected = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.on('exit', (code) => reject(new Error(`the controller exited (${code}) before leading`)));
    });
    expect(elected).toBe('elected 1');

    const tokens: number[] = [];
    let tookOver: () => void = () => {};
    const tookOverPromise = new Promise<void>((resolve) => {
      tookOver = resolve;
    });
    const election = createLeaderElection({
      lease: createLeaderLease({ pool, name: 'controller', holder: 'machine-b', ttlMs: 1000 }),
      intervalMs: 100,
      logger: silentLogger,
      onElected: (token) => {
        tokens.push(token);
        tookOver();
      },
      onDeposed: () => {},
    });
    try {
      await sleep(300);
      expect(tokens).toEqual([]); // the live controller keeps its lease
      child.kill('SIGKILL');
      await tookOverPromise;
      expect(tokens).toEqual([2]);
      expect(election.token()).toBe(2);
    } finally {
      child.kill('SIGKILL');
      await election.stop();
    }
  }, 60_000);
});
