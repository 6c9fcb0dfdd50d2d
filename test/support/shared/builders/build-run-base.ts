import type { AgentRunStatus, AgentUsage, CancelRequester } from '../../../../src/domain/index.ts';

/** The fields every run has; terminal statuses get an end time. */
export function buildRunBase(sessionID: string, status: AgentRunStatus) {
  const ended = status !== 'requested' && status !== 'running';
  return {
    sessionID,
    status,
    logFilePath: status === 'requested' ? null : `/logs/${sessionID}.jsonl`,
    error: status === 'failed' || status === 'timed-out' ? 'something went wrong' : null,
    requestedAt: 1_000,
    endedAt: ended ? 2_000 : null,
    usage: null as AgentUsage | null,
    cancelRequestedBy: null as CancelRequester | null,
  };
}
