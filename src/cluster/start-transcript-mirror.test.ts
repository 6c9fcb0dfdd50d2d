import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { createRecordingLogger, silentLogger } from '../logging/logger.ts';
import { createSessionLog } from '../session-log/create-session-log.ts';
import { createRunTranscriptRepository } from '../storage/engine-state/run-transcript-repository.ts';
import { openPostgresState } from '../storage/open-postgres-state.ts';
import type { SqlConnection } from '../storage/sql/sql-connection.ts';
import { createTranscriptChunks } from './create-transcript-chunks.ts';
import { startTranscriptMirror } from './start-transcript-mirror.ts';

let postgres: TestPostgres;
let pool: pg.Pool;
let state: SqlConnection;
let dir: string;
beforeAll(async () => {
  postgres = await startPostgres();
  // The schema as a worker slot finds it: migrated by the state's PostgreSQL migrations (007 the table).
  state = openPostgresState(postgres.url);
  pool = new pg.Pool({ connectionString: postgres.url, max: 3 });
  dir = await mkdtemp(join(tmpdir(), 'flotilla-mirror-'));
}, 60_000);
afterEach(() => state.run('TRUNCATE run_transcript_chunks'));
afterAll(async () => {
  await pool?.end();
  state?.close();
  postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

const mirrorOf = (runID: string, filePath: string, logger = silentLogger) =>
  startTranscriptMirror({
    filePath,
    send: (chunk) =>
      createTranscriptChunks(pool).append({ ...chunk, runID, sessionNumber: 2, executor: 'worker-a/0' }),
    flushMs: 50,
    logger,
  });
const stored = (runID: string) => createRunTranscriptRepository(state).chunksOf(runID);
const storedText = (runID: string) =>
  stored(runID)
    .map((chunk) => chunk.text)
    .join('');

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 400) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a run’s transcript copied to PostgreSQL as it grows (worker slot)', () => {
  it('is the file exactly — redacted, capped, truncation line and footer — and readable mid-run', async () => {
    const secret = 'sk-very-secret-value-123';
    const log = createSessionLog({
      logsDir: dir,
      enabled: true,
      sessionID: 'run-exact',
      role: 'implementor',
      context: { workItemID: '7' },
      logger: silentLogger,
      redact: (text) => text.replaceAll(secret, '[REDACTED:API_KEY]'),
      maxBytes: 1200,
      sessionNumber: 2,
    });
    const filePath = log.filePath ?? '';
    const mirror = mirrorOf('run-exact', filePath);
    log.record({ type: 'assistant', message: { content: [{ type: 'text', text: `first, key ${secret}` }] } });
    await log.flush();
    // Mid-run: the first message is in PostgreSQL before the run ends (no footer yet).
    await until(() => storedText('run-exact').includes('first, key'), 'the first message in PostgreSQL');
    expect(storedText('run-exact')).not.toContain('=== Session End ===');
    for (let n = 0; n < 40; n += 1)
      log.record({
        type: 'assistant',
        message: { content: [{ type: 'text', text: `line ${n} ${'x'.repeat(40)}` }] },
      });
    await log.finish('completed');
    await mirror.stop();

    const file = await readFile(filePath, 'utf8');
    expect(storedText('run-exact')).toBe(file);
    expect(file).toContain('[REDACTED:API_KEY]');
    expect(file).not.toContain(secret);
    expect(file).toContain('[output truncated] the transcript reached its cap of 1200 bytes');
    expect(file).toContain('=== Session End ===\nOutcome: completed\n');
    const rows = stored('run-exact');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index));
    expect(rows.every((row) => row.executor === 'worker-a/0' && row.sessionNumber === 2)).toBe(true);
  });

  it('sends whole lines while the run goes on; stop sends a last partial one', async () => {
    const filePath = join(dir, 'partial.log');
    const mirror = mirrorOf('run-partial', filePath);
    await appendFile(filePath, 'héllo\nwor');
    await until(() => stored('run-partial').length === 1, 'the whole line');
    expect(storedText('run-partial')).toBe('héllo\n');
    await mirror.stop();
    expect(stored('run-partial').map((row) => row.text)).toEqual(['héllo\n', 'wor']);
  });

  it('a database failure is logged once and never reaches the file; what failed is sent once it works', async () => {
    const filePath = join(dir, 'failing.log');
    const logger = createRecordingLogger();
    // A real failure: the table is not there for a while (as on a schema a worker never migrated).
    state.run('ALTER TABLE run_transcript_chunks RENAME TO run_transcript_chunks_away');
    let renamed = true;
    try {
      const mirror = mirrorOf('run-failing', filePath, logger);
      await appendFile(filePath, 'one\n');
      await until(() => logger.records.length > 0, 'the failure to be logged');
      await appendFile(filePath, 'two\n');
      // Several more failed sends: still one warning.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(logger.records.map((record) => [record.level, record.message])).toEqual([
        ['warn', 'could not copy a run’s transcript to the cluster database; the file keeps it'],
      ]);
      state.run('ALTER TABLE run_transcript_chunks_away RENAME TO run_transcript_chunks');
      renamed = false;
      await until(() => storedText('run-failing') === 'one\ntwo\n', 'the kept text to be sent');
      await mirror.stop();
      expect(await readFile(filePath, 'utf8')).toBe('one\ntwo\n');
      expect(logger.records).toHaveLength(1);
    } finally {
      if (renamed) state.run('ALTER TABLE run_transcript_chunks_away RENAME TO run_transcript_chunks');
    }
  });
});
