import type { PostgresMigration } from './postgres-migration.ts';

/**
 * A remote run's session transcript on PostgreSQL (cluster mode only; one machine has the file and no table):
 * a worker's slot appends what its run's transcript file gained, as it streams, so `flotilla logs` on any
 * machine reads it (src/cluster/start-transcript-mirror.ts). `executor` tells a requeued run's executions
 * apart (each writes its own transcript from the start); `seq` numbers one execution's chunks from 0 (a chunk
 * sent twice after a lost acknowledgement is kept once); `at` is epoch milliseconds.
 */
export const runTranscriptChunksPostgresMigration: PostgresMigration = {
  version: 7,
  name: 'run transcript chunks',
  statements: [
    `CREATE TABLE run_transcript_chunks (
      rowid BIGSERIAL PRIMARY KEY,
      run_id TEXT NOT NULL,
      session_number INTEGER NOT NULL CHECK (session_number >= 1),
      executor TEXT NOT NULL,
      seq INTEGER NOT NULL CHECK (seq >= 0),
      text TEXT NOT NULL,
      at BIGINT NOT NULL,
      UNIQUE (run_id, executor, seq)
    )`,
    'CREATE INDEX run_transcript_chunks_run ON run_transcript_chunks (run_id, rowid)',
  ],
};

/** The tables only the PostgreSQL backend has (no SQLite twin: on one machine the file is the transcript). */
export const POSTGRES_ONLY_TABLES: readonly string[] = ['run_transcript_chunks'];
