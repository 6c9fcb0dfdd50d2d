import { open } from 'node:fs/promises';
import type { Logger } from '../logging/logger.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { messageOf } from '../shared/message-of.ts';

export interface TranscriptMirrorOptions {
  /** The run's transcript file (the session log writes it, redacted and capped: src/session-log/). */
  filePath: string;
  /** Stores one chunk: its number (from 0, one more per chunk stored) and its text. */
  send(chunk: { seq: number; text: string; at: number }): Promise<void>;
  /** How often what the file gained is sent; at most 3 s (issue #28 §5's flush bound). */
  flushMs: number;
  logger: Logger;
  now?: () => number;
}

export interface TranscriptMirror {
  /** Sends what the file holds beyond the last chunk (a last partial line too), then stops. Never rejects. */
  stop(): Promise<void>;
}

const NEWLINE = 0x0a;

/**
 * A worker's copy of a run's transcript in PostgreSQL (issue #33), so any machine's `flotilla logs` reads it:
 * every `flushMs` the bytes the file gained since the last chunk, up to its last complete line, are sent as one
 * chunk (a newline byte never falls inside a UTF-8 character, so no character is split). Reading the file
 * means the copy is what the file holds: redacted, capped at its size, its `[output truncated]` line included.
 * Best effort and never in the run's way: a failed send is logged once, its text kept and sent again with the
 * next; the file is not touched. A `kill -9` of the slot loses what the file gained in the last `flushMs`.
 */
export function startTranscriptMirror(options: TranscriptMirrorOptions): TranscriptMirror {
  const now = options.now ?? Date.now;
  let offset = 0;
  let seq = 0;
  let pending = '';
  let warned = false;
  let busy: Promise<void> = Promise.resolve();
  let inFlight = false;

  const readNew = async (final: boolean): Promise<void> => {
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(options.filePath, 'r');
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT')) return; // No line written yet (the header comes with the first).
      throw error;
    }
    try {
      const { size } = await file.stat();
      if (size <= offset) return;
      const buffer = Buffer.alloc(size - offset);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      const end = final ? bytesRead : buffer.lastIndexOf(NEWLINE, bytesRead - 1) + 1;
      if (end <= 0) return;
      pending += buffer.subarray(0, end).toString('utf8');
      offset += end;
    } finally {
      await file.close();
    }
  };

  const tick = (final: boolean) => {
    // A slow database: the next interval waits for this send instead of queueing behind it.
    if (inFlight && !final) return busy;
    inFlight = true;
    busy = busy.then(async () => {
      try {
        await readNew(final);
        if (pending.length === 0) return;
        await options.send({ seq, text: pending, at: now() });
        seq += 1;
        pending = '';
      } catch (error) {
        if (warned) return;
        warned = true;
        options.logger.warn('could not copy a run’s transcript to the cluster database; the file keeps it', {
          filePath: options.filePath,
          error: messageOf(error),
        });
      } finally {
        inFlight = false;
      }
    });
    return busy;
  };

  const timer = setInterval(() => void tick(false), Math.min(options.flushMs, 3000));
  return {
    async stop() {
      clearInterval(timer);
      await tick(true);
    },
  };
}
