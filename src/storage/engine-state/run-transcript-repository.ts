import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

/** One piece of a remote run's transcript, as its worker's slot sent it (PostgreSQL migration 007). */
export interface StoredTranscriptChunk {
  /** The executor (a worker's slot) whose execution of the run wrote it: a requeued run has several. */
  executor: string;
  sessionNumber: number;
  /** The chunk's place in its execution's transcript, from 0. */
  seq: number;
  text: string;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * The transcripts workers streamed (cluster mode: `run_transcript_chunks`, written by src/cluster/). One machine
 * writes transcripts only to files and has no such table: there it reads nothing.
 */
export interface RunTranscriptRepository {
  /** The run's chunks in the order they were stored (each execution's in its own order); [] when none. */
  chunksOf(runID: string): StoredTranscriptChunk[];
}

export function createRunTranscriptRepository(target: SqlTarget): RunTranscriptRepository {
  const sql = asSqlConnection(target);
  return {
    chunksOf(runID) {
      if (sql.dialect !== 'postgres') return [];
      return sql
        .all<{ executor: string; session_number: number; seq: number; text: string; at: number }>(
          `SELECT executor, session_number, seq, text, at FROM run_transcript_chunks
            WHERE run_id = ? ORDER BY rowid`,
          [runID],
        )
        .map((row) => ({
          executor: row.executor,
          sessionNumber: Number(row.session_number),
          seq: Number(row.seq),
          text: row.text,
          at: Number(row.at),
        }));
    },
  };
}
