import type { Pool } from 'pg';
import { z } from 'zod';
import { formatZodIssues } from '../shared/format-zod-issues.ts';
import { withSchemaLock } from './with-schema-lock.ts';

/**
 * A remote run's conversation messages (issue #28 §3 across machines, issue #33): rows of ours keyed by the
 * run's workflow id, each taken (deleted) by the side it is addressed to.
 */
const MESSAGES_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS public.flotilla_run_messages (
    seq BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL,
    recipient TEXT NOT NULL CHECK (recipient IN ('controller', 'worker')),
    body JSONB NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS flotilla_run_messages_run ON public.flotilla_run_messages (run_id, recipient, seq)`;

const text = z.string().min(1);
const status = z.enum(['answered', 'timeout', 'not-running', 'refused', 'stopped']);

/** What a worker's run sends the controller's broker: its agent's asks and answers. */
const TO_CONTROLLER = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('ask'),
    callID: text,
    request: z.strictObject({ to: text, question: text, timeoutSeconds: z.number().int().positive() }),
  }),
  z.strictObject({ kind: z.literal('answer'), conversationID: text, answer: text }),
]);

/** What the controller sends a worker's run: the ends of its asks, and the questions asked of it. */
const TO_WORKER = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('reply'),
    callID: text,
    reply: z.strictObject({ conversationID: text, status, text: z.string() }),
  }),
  z.strictObject({
    kind: z.literal('question'),
    question: z.strictObject({ conversationID: text, from: text, question: text }),
  }),
  z.strictObject({ kind: z.literal('withdraw'), conversationID: text }),
]);

export type ControllerMessage = z.infer<typeof TO_CONTROLLER>;
export type WorkerMessage = z.infer<typeof TO_WORKER>;

const SCHEMAS = { controller: TO_CONTROLLER, worker: TO_WORKER };

export type Recipient = keyof typeof SCHEMAS;
type MessageFor<To extends Recipient> = To extends 'controller' ? ControllerMessage : WorkerMessage;

/** A row that is not a message of ours: what was wrong with it (the rest of the batch is kept). */
export interface RefusedMessage {
  seq: number;
  problem: string;
}

export interface RunMessages {
  send<To extends Recipient>(runID: string, to: To, message: MessageFor<To>): Promise<void>;
  /** The messages waiting for `to`, oldest first, removed as they are read (each is handled once). */
  take<To extends Recipient>(
    runID: string,
    to: To,
  ): Promise<{ messages: MessageFor<To>[]; refused: RefusedMessage[] }>;
  /** The run's messages are no longer needed (its reply landed). */
  forget(runID: string): Promise<void>;
}

/**
 * The channel a remote run's conversations cross (create-remote-conversations.ts on the controller,
 * bridge-run-conversations.ts on the worker): a table of ours in PostgreSQL, like the live progress
 * (create-run-progress.ts), so neither side needs to reach the other. Rows read are validated: a body that
 * is not a message for its recipient is refused, naming the row and the field.
 */
export function createRunMessages(pool: Pool): RunMessages {
  let tableReady: Promise<unknown> | null = null;
  const ready = () => {
    tableReady ??= withSchemaLock({ pool }, () => pool.query(MESSAGES_TABLE_SQL)).catch((error: unknown) => {
      tableReady = null;
      throw error;
    });
    return tableReady;
  };
  return {
    async send(runID, to, message) {
      await ready();
      await pool.query(
        'INSERT INTO public.flotilla_run_messages (run_id, recipient, body) VALUES ($1, $2, $3)',
        [runID, to, JSON.stringify(message)],
      );
    },
    async take<To extends Recipient>(runID: string, to: To) {
      await ready();
      const result = await pool.query<{ seq: string; body: unknown }>(
        `DELETE FROM public.flotilla_run_messages WHERE run_id = $1 AND recipient = $2
          RETURNING seq, body`,
        [runID, to],
      );
      const rows = result.rows.map((row) => ({ ...row, seq: Number(row.seq) })).sort((a, b) => a.seq - b.seq);
      const messages: MessageFor<To>[] = [];
      const refused: RefusedMessage[] = [];
      for (const row of rows) {
        const parsed = SCHEMAS[to].safeParse(row.body);
        if (parsed.success) messages.push(parsed.data as MessageFor<To>);
        else
          refused.push({
            seq: row.seq,
            problem: `flotilla_run_messages row ${row.seq} (to the ${to}): body: ${formatZodIssues(parsed.error.issues).join('; ')}`,
          });
      }
      return { messages, refused };
    },
    async forget(runID) {
      await ready();
      await pool.query('DELETE FROM public.flotilla_run_messages WHERE run_id = $1', [runID]);
    },
  };
}
