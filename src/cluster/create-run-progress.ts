import type { Pool } from 'pg';
import type { AgentNote } from '../domain/index.ts';
import type { LiveUsageReport } from '../engine/runtime-contract/index.ts';
import { withSchemaLock } from './with-schema-lock.ts';

/** A running remote run's progress, written by the worker's slot, read by the controller while it waits. */
const PROGRESS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS public.flotilla_run_progress (
    seq BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL,
    executor TEXT NOT NULL,
    output TEXT NOT NULL,
    usage JSONB,
    activity BOOLEAN NOT NULL DEFAULT FALSE,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS flotilla_run_progress_run ON public.flotilla_run_progress (run_id, seq);
  ALTER TABLE public.flotilla_run_progress ADD COLUMN IF NOT EXISTS notes JSONB`;

/** What a slot sent since its last flush: text output, the latest cumulative usage, and whether it was busy. */
export interface RunProgressEntry {
  output: string;
  usage: LiveUsageReport | null;
  /** Non-text activity (tool calls) happened: the controller's stall timeout sees the run alive. */
  activity: boolean;
  /** The notes the agent recorded since (decisions, logged questions, summaries, memories), in order. */
  notes: AgentNote[];
}

export interface RunProgressRow extends RunProgressEntry {
  seq: number;
  /** Which execution wrote it: a requeued run's second executor starts its usage and output over. */
  executor: string;
}

export interface RunProgress {
  append(runID: string, executor: string, entry: RunProgressEntry): Promise<void>;
  /** The run's entries after `afterSeq`, oldest first. */
  read(runID: string, afterSeq: number): Promise<RunProgressRow[]>;
  /** The run's entries are no longer needed (its reply landed). */
  forget(runID: string): Promise<void>;
}

/**
 * Live output and usage across machines (issue #33): a table of ours keyed by the run's workflow id, rows
 * appended by the slot running it and polled by the controller's remote runtime, so the engine gets output,
 * activity and usage mid-run (its budget caps and stall timeout act on a remote run as on a local one).
 */
export function createRunProgress(pool: Pool): RunProgress {
  let tableReady: Promise<unknown> | null = null;
  const ready = () => {
    tableReady ??= withSchemaLock({ pool }, () => pool.query(PROGRESS_TABLE_SQL)).catch((error: unknown) => {
      tableReady = null;
      throw error;
    });
    return tableReady;
  };
  return {
    async append(runID, executor, entry) {
      await ready();
      await pool.query(
        `INSERT INTO public.flotilla_run_progress (run_id, executor, output, usage, activity, notes)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          runID,
          executor,
          entry.output,
          entry.usage === null ? null : JSON.stringify(entry.usage),
          entry.activity,
          entry.notes.length === 0 ? null : JSON.stringify(entry.notes),
        ],
      );
    },
    async read(runID, afterSeq) {
      await ready();
      const result = await pool.query<{
        seq: string;
        executor: string;
        output: string;
        usage: LiveUsageReport | null;
        activity: boolean;
        notes: AgentNote[] | null;
      }>(
        `SELECT seq, executor, output, usage, activity, notes FROM public.flotilla_run_progress
          WHERE run_id = $1 AND seq > $2 ORDER BY seq`,
        [runID, afterSeq],
      );
      return result.rows.map((row) => ({ ...row, seq: Number(row.seq), notes: row.notes ?? [] }));
    },
    async forget(runID) {
      await ready();
      await pool.query('DELETE FROM public.flotilla_run_progress WHERE run_id = $1', [runID]);
    },
  };
}
