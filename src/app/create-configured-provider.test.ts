import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { type FlotillaConfig, flotillaConfigFileSchema, resolveFlotillaPaths } from '../config/index.ts';
import { silentLogger } from '../logging/logger.ts';
import { type Database, openDatabase, openPostgresState } from '../storage/index.ts';
import { createConfiguredProvider } from './create-configured-provider.ts';

const ITEM = { title: 'Add greet', body: 'Objective: greet.', labels: [], blockedBy: [] };

describe('createConfiguredProvider in cluster mode: the local tracker in PostgreSQL', () => {
  let postgres: TestPostgres;
  let dir: ReturnType<typeof createTempDir>;
  let db: Database;
  let config: FlotillaConfig;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());
  beforeEach(() => {
    dir = createTempDir();
    execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: dir.path });
    db = openDatabase(resolveFlotillaPaths(dir.path).dbPath);
    config = {
      ...flotillaConfigFileSchema.parse({ cluster: { postgres: '$FLOTILLA_DATABASE_URL' } }),
      defaultBranch: 'main',
    };
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });
  const create = (env: Record<string, string | undefined>) =>
    createConfiguredProvider({
      repoRoot: dir.path,
      config,
      paths: resolveFlotillaPaths(dir.path),
      db,
      env,
      logger: silentLogger,
    });

  it("keeps the items in the cluster's database, on a connection of its own closed with it", async () => {
    const provider = await create({ FLOTILLA_DATABASE_URL: postgres.url });
    const created = await provider.workItemWriter.createWorkItem(ITEM);
    await provider.close();
    const shared = openPostgresState(postgres.url);
    try {
      expect(shared.all('SELECT id, title FROM work_items')).toEqual([
        { id: Number(created.id), title: 'Add greet' },
      ]);
    } finally {
      shared.close();
    }
    expect(db.prepare('SELECT COUNT(*) AS n FROM work_items').get()).toEqual({ n: 0 });
    // Closed with the provider: using its tracker now fails rather than reaching a database.
    expect(() => provider.localTracker?.workItems.listWorkItems()).toThrow(/PostgreSQL/);
  });

  it('refuses to start without the database variable, naming it, rather than use the empty SQLite', async () => {
    await expect(create({})).rejects.toThrow('$FLOTILLA_DATABASE_URL (cluster.postgres) is not set');
  });
});
