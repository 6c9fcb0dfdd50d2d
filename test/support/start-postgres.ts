import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from './shared/find-free-port.ts';

/** A real PostgreSQL server for one test file, in a temporary data directory, on 127.0.0.1. */
export interface TestPostgres {
  /** `postgres://flotilla@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  url: string;
  port: number;
  /** The server's postmaster process id (from its data directory's postmaster.pid): benches read its CPU. */
  pid(): number;
  /** Stops the server at once (`-m immediate`) and removes its data directory. */
  stop(): void;
}

/**
 * Starts Debian's PostgreSQL (`apt-get install postgresql`; `.ci/run` installs it) as an ordinary user: the
 * server refuses to run as root, so as root it runs as the `postgres` user the package creates. Each call is
 * its own cluster (initdb, then pg_ctl start on a free port), so test files never share state.
 */
export async function startPostgres(options: { maxConnections?: number } = {}): Promise<TestPostgres> {
  const bin = findPostgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, program),
      asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args,
      {
        stdio: 'pipe',
      },
    );
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await findFreePort();
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'flotilla', '-E', 'UTF8', '--no-sync']);
    // -F: no fsync (a test cluster); the socket in the temporary directory, TCP on loopback only.
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-F -k ${dir} -h 127.0.0.1 -p ${port}${options.maxConnections === undefined ? '' : ` -c max_connections=${options.maxConnections}`}`,
      'start',
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`could not start PostgreSQL from ${bin}: ${stderr || String(error)}`);
  }
  return {
    url: `postgres://flotilla@127.0.0.1:${port}/postgres`,
    port,
    pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The directory holding pg_ctl and initdb: Debian keeps them off PATH, under /usr/lib/postgresql/<major>/bin. */
function findPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run does)');
}
