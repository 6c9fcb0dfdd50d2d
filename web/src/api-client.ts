import type { BudgetReport } from '../../src/cli/commands/budget-command-report.ts';
import type { ChecksSummary } from '../../src/cli/commands/checks-command.ts';
import type { RunSummary } from '../../src/cli/commands/runs-command-summary.ts';
import type { WorkItemDetails } from '../../src/cli/commands/work-show-command.ts';
import type { DailySpendReport } from '../../src/cli/support/build-daily-spend.ts';
import type { QueueSummary } from '../../src/cli/support/load-queue-summary.ts';
import type { HumanVerdict, ReviewSummary } from '../../src/cli/support/record-human-review.ts';
import type { AgentConversation, Proposal, RevisionFile, WorkItem } from '../../src/domain/index.ts';
import type { DetailLine } from '../../src/tui/view-model/build-detail-content.ts';

export type {
  AgentConversation,
  BudgetReport,
  DailySpendReport,
  HumanVerdict,
  QueueSummary,
  ReviewSummary,
  RunSummary,
  WorkItem,
  WorkItemDetails,
};

/** `GET /api/work-items/:id/checks`: `flotilla checks --json` with the tail of its log. */
export interface ChecksResponse extends ChecksSummary {
  headRef: string;
  log: { text: string; truncated: boolean } | null;
}

/** `GET /api/proposals`: a pending one carries the decision a human recorded that the engine has not applied. */
export type ProposalEntry = Proposal & {
  decision?: { decision: 'accept' | 'reject'; author: string } | null;
};

/** `POST /api/proposals/:id/accept|reject`: who decided, what follows and when. */
export interface ProposalDecisionResponse {
  proposalID: string;
  decision: 'accept' | 'reject';
  author: string | null;
  effect: string;
  when: string;
}

/** `GET /api/status`: the provider, whether an engine runs in the server, the tracker quota line. */
export interface ServerStatus {
  provider: string;
  engine: boolean;
  quota: { text: string; tone: 'normal' | 'low' | 'paused' } | null;
}

export interface DiffResponse {
  revision: { id: string; headRef: string; headSHA: string; state: string };
  files: RevisionFile[];
  lines: DetailLine[];
}

/** A line comment in a review: a line of the revision's new version of `path` (from 1). */
export interface LineComment {
  path: string;
  line: number;
  body: string;
}

export interface TranscriptResponse {
  run: RunSummary;
  text: string;
}

/** An error the API answered (`{ error: { code, message } }`), or a failed request. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const body = (await response.json().catch(() => null)) as
    | (T & { error?: undefined })
    | { error?: { message?: string } }
    | null;
  if (!response.ok) {
    const message = body?.error?.message ?? `${response.status} ${response.statusText}`;
    throw new RequestError(message, response.status);
  }
  return body as T;
}

/** Actions are POSTs with a JSON body: the server refuses anything else (src/api/README.md). */
const post = <T>(path: string, body: unknown) =>
  request<T>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const item = (id: string) => `/api/work-items/${encodeURIComponent(id)}`;

export const api = {
  listItems: () => request<WorkItem[]>('/api/work-items?state=all'),
  listRuns: (limit = 200) => request<RunSummary[]>(`/api/runs?limit=${limit}`),
  itemRuns: (id: string) => request<RunSummary[]>(`/api/runs?limit=20&item=${encodeURIComponent(id)}`),
  /** Questions agents asked each other, newest first (`flotilla conversations --json`); `id`: one item's. */
  conversations: (id?: string) =>
    request<AgentConversation[]>(
      `/api/conversations?limit=50${id === undefined ? '' : `&item=${encodeURIComponent(id)}`}`,
    ),
  budget: () => request<BudgetReport>('/api/budget'),
  budgetDays: (days = 14) => request<DailySpendReport>(`/api/budget/days?days=${days}`),
  status: () => request<ServerStatus>('/api/status'),
  /** The merge queue (`flotilla queue --json`); null where the server has no queue route (404). */
  mergeQueue: () =>
    request<QueueSummary>('/api/merge-queue').catch((error: unknown) => {
      if (error instanceof RequestError && error.status === 404) return null;
      throw error;
    }),
  /** The pending proposals (`flotilla proposals list --json`), newest first; none where there is no route (404). */
  pendingProposals: () =>
    request<ProposalEntry[]>('/api/proposals?status=pending').catch((error: unknown) => {
      if (error instanceof RequestError && error.status === 404) return [];
      throw error;
    }),
  /** Accept, or reject with a reason the revising planner gets, as `flotilla proposals accept|reject`. */
  decideProposal: (id: string, decision: 'accept' | 'reject', comment: string) =>
    post<ProposalDecisionResponse>(`/api/proposals/${encodeURIComponent(id)}/${decision}`, { comment }),
  checks: (id: string) => request<ChecksResponse>(`${item(id)}/checks`),
  details: (id: string) => request<WorkItemDetails>(item(id)),
  diff: (id: string) => request<DiffResponse>(`${item(id)}/diff`),
  transcript: (session: string) =>
    request<TranscriptResponse>(`/api/runs/${encodeURIComponent(session)}/transcript`),
  dispatch: (id: string) => post<unknown>(`${item(id)}/dispatch`, {}),
  answer: (id: string, body: string) => post<unknown>(`${item(id)}/answer`, { body }),
  comment: (id: string, body: string) => post<unknown>(`${item(id)}/comments`, { body }),
  /** Your verdict on the open revision, as `flotilla review`. */
  review: (id: string, verdict: HumanVerdict, body: string, comments: readonly LineComment[] = []) =>
    post<ReviewSummary>(`${item(id)}/review`, { verdict, body, comments }),
  /** Engine actions (`flotilla run --serve`): cancel, retry, unblock, merge; refused without an engine. */
  engineAction: (id: string, action: EngineAction) => post<unknown>(`${item(id)}/${action}`, {}),
};

export type EngineAction = 'cancel' | 'retry' | 'unblock' | 'merge';
