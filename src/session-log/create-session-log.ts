import { appendFile, mkdir } from 'node:fs/promises';
import type { AgentRole } from '../domain/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import { buildSessionLogPath } from './build-session-log-path.ts';
import { formatSessionMessage } from './format-session-message.ts';
import { createSecretRedactor } from './redact-secrets.ts';
import type { SessionLogMessage } from './session-log-message.ts';

/** How the run ended, as the footer states it. */
export type SessionOutcome = 'completed' | 'failed' | 'cancelled' | 'timed-out';

/** What the header's context line describes: the planner's specs, or the work item (and revision). */
export type SessionLogContext =
  | { specPaths: readonly string[] }
  | { workItemID: string; revisionID?: string };

export interface SessionLogOptions {
  /** Absolute directory for transcripts; created when the first line is written. */
  logsDir: string;
  enabled: boolean;
  /** The ENGINE's session id (the one it cancels by), not an SDK-internal id. */
  sessionID: string;
  role: AgentRole;
  context: SessionLogContext;
  /** Default: the system clock. */
  clock?: { now(): number };
  logger: Logger;
  /** Applied to every line before it is written. Default: redacts secret env values of this process. */
  redact?: ((text: string) => string) | undefined;
  /**
   * The transcript's size cap in bytes (default 5 MiB, `DEFAULT_MAX_TRANSCRIPT_BYTES`): past it, one
   * `[output truncated] …` line and then only the footer, so a chatty session cannot fill the disk.
   */
  maxBytes?: number | undefined;
  /**
   * Which session of its run this transcript is: 1 for a fresh run, 2 for its first resume, … (the header's
   * `Session:` line; `flotilla logs` prints a run's sessions in this order). Default 1.
   */
  sessionNumber?: number | undefined;
}

export const DEFAULT_MAX_TRANSCRIPT_BYTES = 5 * 1024 * 1024;

export interface SessionLog {
  /** Where the transcript is written; null when logging is disabled. Known before the session starts. */
  readonly filePath: string | null;
  /** Appends one message (header first, on the first call). Never throws; writes stay in order. */
  record(message: SessionLogMessage): void;
  /** Appends a line of Flotilla's own (`[HH:MM:SS] FLOTILLA …`, e.g. a validation command's verdict). */
  note(text: string): void;
  /**
   * Writes the footer (and the header, if no message ever arrived) and resolves once everything is on
   * disk. Never rejects. Later calls return the same promise; records after it are ignored.
   */
  finish(outcome: SessionOutcome, detail?: string): Promise<void>;
  /** Resolves once every line recorded so far is written (or dropped after a failure). Never rejects. */
  flush(): Promise<void>;
}

/**
 * A human-readable transcript of one agent session in the docs/reference-behaviour.md §9 format. Write failures never
 * affect the run: the first one disables the log for the session and is reported as a warning.
 */
export function createSessionLog(options: SessionLogOptions): SessionLog {
  const { logger, sessionID, role } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const createdAt = clock.now();
  const filePath = options.enabled
    ? buildSessionLogPath({
        logsDir: options.logsDir,
        startedAt: createdAt,
        role,
        sessionID,
        ...('workItemID' in options.context && { workItemID: options.context.workItemID }),
      })
    : null;
  const redact = options.redact ?? createSecretRedactor();

  let writes: Promise<void> = Promise.resolve();
  let failed = false;
  let headerQueued = false;
  let ending: Promise<void> | null = null;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES;
  let writtenBytes = 0;
  let droppedBytes = 0;

  /** Queues `text`; past the cap only the truncation line (once) and, with `always`, the footer are written. */
  const write = (text: string, always = false) => {
    if (filePath === null || failed) return;
    let redacted = redact(text);
    const size = Buffer.byteLength(redacted);
    if (!always && writtenBytes + size > maxBytes) {
      const first = droppedBytes === 0;
      droppedBytes += size;
      if (!first) return;
      redacted = `[output truncated] the transcript reached its cap of ${maxBytes} bytes; later messages are not written\n`;
    } else {
      writtenBytes += size;
    }
    writes = writes.then(async () => {
      if (failed) return;
      try {
        await appendFile(filePath, redacted, { encoding: 'utf8', mode: 0o600 });
      } catch (error) {
        failed = true;
        warn('Agent session log write failed; logging disabled for this session', error);
      }
    });
  };

  const warn = (message: string, error: unknown) => {
    try {
      logger.warn(message, {
        sessionID,
        filePath,
        error: messageOf(error),
      });
    } catch {
      // A broken logger must not break the run either.
    }
  };

  const ensureHeader = () => {
    if (headerQueued || filePath === null) return;
    headerQueued = true;
    writes = writes.then(async () => {
      try {
        await mkdir(options.logsDir, { recursive: true });
      } catch (error) {
        failed = true;
        warn('Cannot create the agent session log directory; logging disabled for this session', error);
      }
    });
    write(buildHeader(options, clock.now()));
  };

  return {
    filePath,

    record(message) {
      if (filePath === null || ending !== null || failed) return;
      try {
        ensureHeader();
        const entry = formatSessionMessage(message, clock.now());
        if (entry !== null) write(`${entry}\n`);
      } catch (error) {
        warn('Could not format an agent session message', error);
      }
    },

    note(text) {
      if (filePath === null || ending !== null || failed) return;
      ensureHeader();
      const stamp = `[${new Date(clock.now()).toISOString().slice(11, 19)}]`;
      const [first = '', ...rest] = text.split('\n');
      write(`${[`${stamp} FLOTILLA ${first}`, ...rest.map((line) => `  ${line}`)].join('\n')}\n`);
    },

    finish(outcome, detail) {
      if (ending !== null) return ending;
      if (filePath === null) {
        ending = Promise.resolve();
        return ending;
      }
      ensureHeader();
      const lines = ['', '=== Session End ===', `Outcome: ${outcome}`];
      if (detail !== undefined && detail !== '') lines.push(`Detail: ${detail.replace(/\n/g, '\n  ')}`);
      if (droppedBytes > 0) lines.push(`Truncated: ${droppedBytes} bytes of later messages not written`);
      lines.push(`Finished: ${new Date(clock.now()).toISOString()}`, '');
      write(lines.join('\n'), true);
      ending = writes;
      return ending;
    },

    flush() {
      return writes;
    },
  };
}

function buildHeader(options: SessionLogOptions, startedAt: number): string {
  const { context } = options;
  const contextLines =
    'specPaths' in context
      ? [`Spec Paths: ${context.specPaths.join(', ')}`]
      : [
          `Issue: #${context.workItemID}`,
          ...(context.revisionID === undefined ? [] : [`Revision: #${context.revisionID}`]),
        ];
  return [
    '=== Agent Session ===',
    `Type: ${options.role}`,
    `Session ID: ${options.sessionID}`,
    ...contextLines,
    `Started: ${new Date(startedAt).toISOString()}`,
    `Session: ${options.sessionNumber ?? 1}`,
    '',
    '=== Messages ===',
    '',
    '',
  ].join('\n');
}
