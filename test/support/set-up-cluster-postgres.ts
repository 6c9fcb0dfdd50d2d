/**
 * The set-up every cluster test file shares (issue #33): run fixtures cleaned after each test, and one real
 * PostgreSQL for the file (start-postgres.ts), started before its tests and stopped after them. Call once at
 * the top of a test file: it registers the vitest hooks.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createRunFixtures, type RunFixtures } from './create-run-fixtures.ts';
import { startPostgres, type TestPostgres } from './start-postgres.ts';

export interface ClusterPostgres {
  fixtures: RunFixtures;
  /** The file's PostgreSQL URL (once its `beforeAll` ran). */
  url(): string;
  /** One statement on the file's PostgreSQL, its rows. */
  query<Row extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** What a cluster's processes run with: see `clusterProcessEnv`. */
  env(gitEnv: Record<string, string>, modelServerUrl?: string): Record<string, string>;
}

export function setUpClusterPostgres(): ClusterPostgres {
  const fixtures = createRunFixtures();
  let postgres: TestPostgres | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterEach(() => fixtures.cleanup());
  afterAll(async () => {
    await pool?.end();
    postgres?.stop();
  });
  const url = () => {
    if (postgres === undefined) throw new Error('PostgreSQL is not started yet (use it inside a test)');
    return postgres.url;
  };
  return {
    fixtures,
    url,
    async query<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      pool ??= new pg.Pool({ connectionString: url(), max: 2 });
      return (await pool.query<Row>(sql, params)).rows;
    },
    env: (gitEnv, modelServerUrl) => clusterProcessEnv(gitEnv, url(), modelServerUrl),
  };
}

/**
 * The environment of a cluster's controller and workers in tests and benches: the repository's git identity,
 * the scripted model server (when given; no retries, so a killed request is not asked again by the CLI) and
 * the database `cluster.postgres` names (`$FLOTILLA_DATABASE_URL`).
 */
export function clusterProcessEnv(
  gitEnv: Record<string, string>,
  postgresUrl: string,
  modelServerUrl?: string,
): Record<string, string> {
  return {
    ...gitEnv,
    ...(modelServerUrl !== undefined && { ANTHROPIC_BASE_URL: modelServerUrl }),
    ANTHROPIC_API_KEY: 'test-key',
    CLAUDE_CODE_MAX_RETRIES: '0',
    FLOTILLA_DATABASE_URL: postgresUrl,
  };
}
