import type { ProviderChange } from '../../types.ts';

/** The events a Flotilla hook subscribes to (`flotilla github setup-webhook`); docs/github-webhooks.md. */
export const WEBHOOK_EVENTS = [
  'issues',
  'issue_comment',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'check_run',
  'check_suite',
  'status',
] as const;

export type WebhookDeliveryAction =
  | { kind: 'ping' }
  /**
   * Poll these readers now; `target` names the item or revision, for the log; `workItemID` the one issue an
   * issue event names (the engine reads just it when it holds it already).
   */
  | { kind: 'poll'; changes: ProviderChange[]; target: string; workItemID?: string }
  | { kind: 'ignore'; reason: string };

type Payload = Record<string, unknown>;

const record = (value: unknown): Payload | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Payload) : null;
const numberAt = (payload: Payload, key: string, field: string): number | null => {
  const value = record(payload[key])?.[field];
  return typeof value === 'number' ? value : null;
};
const stringAt = (payload: Payload, key: string, field: string): string | null => {
  const value = record(payload[key])?.[field];
  return typeof value === 'string' ? value : null;
};

/**
 * What one verified delivery means to the engine: which readers to poll now (the poll stays the source of
 * truth; the delivery only says when). Pure. Deliveries for another repository (an organisation's hook) are
 * ignored, as are events Flotilla does not subscribe to. Payload fields read: `repository.full_name`,
 * `issue.number`, `issue.pull_request`, `pull_request.number`, `check_run.head_sha`,
 * `check_suite.head_sha`, `sha` (status) — docs/github-webhooks.md §Events.
 */
export function mapWebhookDelivery(
  event: string,
  payload: unknown,
  repository: { owner: string; repo: string },
): WebhookDeliveryAction {
  if (event === 'ping') return { kind: 'ping' };
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(event))
    return { kind: 'ignore', reason: `event ${event} is not one Flotilla subscribes to` };
  const body = record(payload);
  if (body === null) return { kind: 'ignore', reason: 'the payload is not a JSON object' };
  const fullName = stringAt(body, 'repository', 'full_name');
  const expected = `${repository.owner}/${repository.repo}`;
  if (fullName === null || fullName.toLowerCase() !== expected.toLowerCase())
    return { kind: 'ignore', reason: `the delivery is for ${fullName ?? 'no repository'}, not ${expected}` };

  switch (event) {
    case 'issues':
      return pollIssue(numberAt(body, 'issue', 'number'));
    case 'issue_comment': {
      const number = numberAt(body, 'issue', 'number');
      // A pull request's conversation is an issue's comments to GitHub: mentions there steer the revision.
      return record(body.issue)?.pull_request !== undefined
        ? poll(['revisions'], `pull request #${number ?? '?'}`)
        : pollIssue(number);
    }
    case 'pull_request':
      // Opened, closed or merged: the item's linked revision and status follow from the pull request.
      return poll(
        ['revisions', 'workItems'],
        `pull request #${numberAt(body, 'pull_request', 'number') ?? '?'}`,
      );
    case 'pull_request_review':
    case 'pull_request_review_comment':
      return poll(['revisions'], `pull request #${numberAt(body, 'pull_request', 'number') ?? '?'}`);
    case 'check_run':
    case 'check_suite':
      return poll(['revisions'], `head ${shortSHA(stringAt(body, event, 'head_sha'))}`);
    default:
      // status
      return poll(['revisions'], `head ${shortSHA(typeof body.sha === 'string' ? body.sha : null)}`);
  }
}

function poll(changes: ProviderChange[], target: string): WebhookDeliveryAction {
  return { kind: 'poll', changes, target };
}

/** An issue event: its work item alone when the payload names a whole number, else the whole list. */
function pollIssue(number: number | null): WebhookDeliveryAction {
  if (number === null || !Number.isSafeInteger(number) || number < 1) return poll(['workItems'], 'issue #?');
  return { kind: 'poll', changes: ['workItems'], target: `issue #${number}`, workItemID: String(number) };
}

function shortSHA(sha: string | null): string {
  return sha === null ? '?' : sha.slice(0, 12);
}
