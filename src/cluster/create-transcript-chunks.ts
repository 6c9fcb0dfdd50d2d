import type { Pool } from 'pg';

/**
 * Where a worker's slot puts its runs' transcripts: `flotilla_state.run_transcript_chunks`, a table of the
 * engine state's PostgreSQL migration 007 (src/storage/postgres-migrations/), which the slot applies before it
 * takes runs (src/app/run-worker-slot.ts). Read back by storage's `RunTranscriptRepository`.
 */
const INSERT_CHUNK = `
  INSERT INTO flotilla_state.run_transcript_chunks (run_id, session_number, executor, seq, text, at)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (run_id, executor, seq) DO NOTHING`;

/** One piece of a run's transcript as its executor sends it. */
export interface TranscriptChunk {
  runID: string;
  sessionNumber: number;
  executor: string;
  /** From 0 within the executor's execution of the run; a chunk sent again after a lost reply is kept once. */
  seq: number;
  text: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface TranscriptChunks {
  append(chunk: TranscriptChunk): Promise<void>;
}

export function createTranscriptChunks(pool: Pick<Pool, 'query'>): TranscriptChunks {
  return {
    async append(chunk) {
      await pool.query(INSERT_CHUNK, [
        chunk.runID,
        chunk.sessionNumber,
        chunk.executor,
        chunk.seq,
        chunk.text,
        chunk.at,
      ]);
    },
  };
}
