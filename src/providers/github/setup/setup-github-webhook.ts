import type { GitHubOctokit } from '../client/create-github-client.ts';
import { WEBHOOK_EVENTS } from '../webhooks/map-webhook-delivery.ts';

/** A repository hook as `GET /repos/{owner}/{repo}/hooks` lists it (the fields Flotilla reads). */
export interface GitHubHookSummary {
  id: number;
  active: boolean;
  events: string[];
  url: string;
}

/** The path `flotilla run --serve` receives deliveries on; a hook whose URL ends with it is Flotilla's. */
export const WEBHOOK_PATH = '/webhooks/github';

/** The repository's web hooks (needs admin rights on it: GitHub answers 404 otherwise). */
export async function listGitHubWebhooks(
  octokit: GitHubOctokit,
  repository: { owner: string; repo: string },
): Promise<GitHubHookSummary[]> {
  const hooks = await octokit.paginate(octokit.rest.repos.listWebhooks, { ...repository, per_page: 100 });
  return hooks.map((hook) => ({
    id: hook.id,
    active: hook.active,
    events: hook.events,
    url: hook.config.url ?? '',
  }));
}

/**
 * `flotilla github setup-webhook --url`: the repository hook GitHub delivers Flotilla's events to
 * (docs/github-webhooks.md §Creating the hook) — `content_type: json`, the secret, the events of
 * WEBHOOK_EVENTS, active. A hook already at `url` is updated to that (idempotent, and the way to rotate the
 * secret); otherwise one is created, and GitHub pings it.
 */
export async function setupGitHubWebhook(
  octokit: GitHubOctokit,
  repository: { owner: string; repo: string },
  options: { url: string; secret: string },
): Promise<{ id: number; created: boolean; events: string[] }> {
  const config = {
    url: options.url,
    content_type: 'json',
    secret: options.secret,
    insecure_ssl: '0' as const,
  };
  const events = [...WEBHOOK_EVENTS];
  const existing = (await listGitHubWebhooks(octokit, repository)).find((hook) => hook.url === options.url);
  if (existing !== undefined) {
    await octokit.rest.repos.updateWebhook({
      ...repository,
      hook_id: existing.id,
      active: true,
      events,
      config,
    });
    return { id: existing.id, created: false, events };
  }
  const { data } = await octokit.rest.repos.createWebhook({
    ...repository,
    name: 'web',
    active: true,
    events,
    config,
  });
  return { id: data.id, created: true, events };
}

/** What `doctor` says of the hooks when webhooks are configured: Flotilla's hook, active, with every event. */
export function describeGitHubWebhook(hooks: readonly GitHubHookSummary[]): {
  status: 'ok' | 'warn' | 'fail';
  message: string;
} {
  const ours = hooks.filter((hook) => new URL(hook.url, 'http://x').pathname.endsWith(WEBHOOK_PATH));
  if (ours.length === 0) {
    return { status: 'fail', message: `no repository hook delivers to …${WEBHOOK_PATH}` };
  }
  const active = ours.find((hook) => hook.active);
  if (active === undefined) {
    return { status: 'fail', message: `the hook to ${ours[0]?.url} is inactive: GitHub sends it nothing` };
  }
  const missing = WEBHOOK_EVENTS.filter(
    (event) => !active.events.includes(event) && !active.events.includes('*'),
  );
  if (missing.length > 0) {
    return {
      status: 'warn',
      message: `the hook to ${active.url} lacks events ${missing.join(', ')} (their changes wait for a poll)`,
    };
  }
  return { status: 'ok', message: `the hook to ${active.url} is active with every event Flotilla uses` };
}
