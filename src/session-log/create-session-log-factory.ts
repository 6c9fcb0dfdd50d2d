import type { AgentRunRequest } from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createSessionLog, type SessionLog, type SessionLogContext } from './create-session-log.ts';
import { createSecretRedactor } from './redact-secrets.ts';

export interface SessionLogFactoryOptions {
  logsDir: string;
  enabled: boolean;
  logger: Logger;
  clock?: { now(): number };
  /** Default: redacts secret env values of this process (the redactor is built once, here). */
  redact?: (text: string) => string;
  /** Each transcript's size cap in bytes (config `logging.maxRunBytes`); default 5 MiB. */
  maxBytes?: number | undefined;
}

/** One transcript per run, described by the run's start params (the adapter's `createSessionLog`). */
export function createSessionLogFactory(
  options: SessionLogFactoryOptions,
): (params: AgentRunRequest) => SessionLog {
  const redact = options.redact ?? createSecretRedactor();
  return (params) =>
    createSessionLog({
      logsDir: options.logsDir,
      enabled: options.enabled,
      sessionID: params.sessionID,
      role: params.role,
      context: sessionLogContextOf(params),
      logger: options.logger,
      redact,
      maxBytes: options.maxBytes,
      sessionNumber: params.resume?.sessionNumber ?? 1,
      ...(options.clock !== undefined && { clock: options.clock }),
    });
}

export function sessionLogContextOf(params: AgentRunRequest): SessionLogContext {
  switch (params.role) {
    case 'planner':
      return { specPaths: params.specPaths };
    case 'implementor':
      return { workItemID: params.workItemID };
    case 'reviewer':
      return { workItemID: params.workItemID, revisionID: params.revisionID };
  }
}
