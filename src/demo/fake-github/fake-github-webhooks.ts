import { createHmac, randomUUID } from 'node:crypto';
import type { FakeUser } from './build-fake-github-resources.ts';
import { type FakeGitHubStore, type FakeRoute, HttpError, ok, route } from './create-fake-github-store.ts';

/** A repository hook as `POST /repos/{owner}/{repo}/hooks` creates it (docs/github-webhooks.md). */
export interface FakeHook {
  id: number;
  active: boolean;
  events: string[];
  url: string;
  secret: string;
}

/** One delivery the fake sent: what, to which hook, and what the receiver answered (0: no answer). */
export interface FakeDelivery {
  id: string;
  hookID: number;
  event: string;
  action: string | null;
  status: number;
  at: number;
}

export interface FakeWebhooks {
  hooks: FakeHook[];
  deliveries: FakeDelivery[];
  /** A REST write succeeded: the events GitHub sends for it. */
  afterWrite(method: string, path: string, sender: FakeUser): void;
  /** A hook created directly (what `POST /repos/{owner}/{repo}/hooks` does, without the request). */
  addHook(fields: { url: string; secret: string; events: string[] }): FakeHook;
  /** The pull request payload the webhooks carry (number, state, head, base). */
  pullPayload(number: number): Promise<Record<string, unknown>>;
  /** Sends `event` to every active hook subscribed to it (`*`: all events). */
  emit(event: string, action: string | null, payload: Record<string, unknown>, sender: FakeUser): void;
  /** Sends a delivery again with the same `X-GitHub-Delivery` (GitHub's "Redeliver"). */
  redeliver(deliveryID: string): Promise<number>;
  /** Resolves once every queued delivery was sent and answered. */
  settled(): Promise<void>;
  routes: FakeRoute[];
}

/**
 * The fake's webhooks, as GitHub sends them (docs/github-webhooks.md): after a change, an HTTP POST per
 * subscribed active hook with `X-GitHub-Event`, `X-GitHub-Delivery` (a GUID), `X-GitHub-Hook-ID`,
 * `X-Hub-Signature-256` (`sha256=` HMAC of the body with the hook's secret) and a JSON body carrying
 * `action`, `repository`, `sender` and the event's object. Sent one after another, after the REST answer,
 * never retried (GitHub does not retry failed deliveries either). Payloads hold the fields Flotilla reads,
 * with GitHub's names, not GitHub's full objects.
 */
export function createFakeWebhooks(store: FakeGitHubStore): FakeWebhooks {
  const hooks: FakeHook[] = [];
  const deliveries: FakeDelivery[] = [];
  const sent = new Map<string, { hook: FakeHook; event: string; body: string }>();
  let queue: Promise<void> = Promise.resolve();
  let nextHookID = 1;
  const repository = () => ({
    id: 1296269,
    name: store.repo,
    full_name: `${store.owner}/${store.repo}`,
    owner: { login: store.owner, id: 1 },
  });

  async function post(hook: FakeHook, event: string, deliveryID: string, body: string): Promise<number> {
    try {
      const response = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/fake',
          'x-github-event': event,
          'x-github-delivery': deliveryID,
          'x-github-hook-id': String(hook.id),
          // A hook without a secret sends no signature (docs/github-webhooks.md §Signature).
          ...(hook.secret !== '' && {
            'x-hub-signature-256': `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`,
            'x-hub-signature': `sha1=${createHmac('sha1', hook.secret).update(body).digest('hex')}`,
          }),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  }

  function emit(
    event: string,
    action: string | null,
    payload: Record<string, unknown>,
    sender: FakeUser,
  ): void {
    for (const hook of hooks) {
      if (!hook.active || !(hook.events.includes(event) || hook.events.includes('*') || event === 'ping'))
        continue;
      const id = randomUUID();
      const body = JSON.stringify({
        ...(action === null ? {} : { action }),
        ...payload,
        repository: repository(),
        sender: { login: sender.login, id: sender.id, type: sender.type ?? 'User' },
      });
      sent.set(id, { hook, event, body });
      const record: FakeDelivery = { id, hookID: hook.id, event, action, status: 0, at: Date.now() };
      deliveries.push(record);
      queue = queue.then(async () => {
        record.status = await post(hook, event, id, body);
      });
    }
  }

  const issuePayload = (number: number) => {
    const issue = store.issues.get(number);
    if (issue === undefined) return null;
    return issue.pull === null
      ? { kind: 'issue' as const, issue: store.issueJSON(issue, false) }
      : { kind: 'pull' as const, number };
  };
  const pullPayload = async (number: number) => {
    const issue = store.issues.get(number);
    if (issue?.pull == null) return { number };
    return {
      number,
      state: issue.state,
      draft: issue.pull.draft,
      merged: issue.pull.mergedAt !== null,
      head: { ref: issue.pull.headRef, sha: await store.headSHA(issue.pull) },
      base: { ref: issue.pull.baseRef },
    };
  };

  /** The event a successful write makes GitHub send (the writes Flotilla and the tests make). */
  async function eventsForWrite(
    method: string,
    path: string,
    sender: FakeUser,
    latest: number,
  ): Promise<void> {
    const rest = path.startsWith(`${store.repoPath}/`) ? path.slice(store.repoPath.length) : null;
    if (rest === null) return;
    const issueMatch = /^\/issues\/(\d+)(\/(labels|comments)(\/.*)?)?$/.exec(rest);
    if (method === 'POST' && rest === '/issues') {
      const found = issuePayload(latest);
      if (found?.kind === 'issue') emit('issues', 'opened', { issue: found.issue }, sender);
      return;
    }
    if (issueMatch !== null) return eventsForIssueWrite(method, Number(issueMatch[1]), issueMatch[3], sender);
    const pullMatch = /^\/pulls(?:\/(\d+)(\/(merge|reviews|comments)(\/.*)?)?)?$/.exec(rest);
    if (pullMatch !== null) return eventsForPullWrite(method, pullMatch[1], pullMatch[3], sender, latest);
    if (/^\/check-runs(\/\d+)?$/.test(rest)) {
      emit(
        'check_run',
        method === 'POST' ? 'created' : 'completed',
        { check_run: { head_sha: null } },
        sender,
      );
      return;
    }
    const status = /^\/statuses\/([0-9a-f]{40})$/.exec(rest);
    if (status !== null) emit('status', null, { sha: status[1] }, sender);
  }

  /** A write under `/issues/{number}`: its comments, its labels, or the issue (or pull request) itself. */
  async function eventsForIssueWrite(
    method: string,
    number: number,
    part: string | undefined,
    sender: FakeUser,
  ): Promise<void> {
    const found = issuePayload(number);
    if (found === null) return;
    if (part === 'comments') {
      const issue = store.issues.get(number);
      const comment = issue?.comments.at(-1);
      emit(
        'issue_comment',
        'created',
        {
          issue: {
            number,
            ...(found.kind === 'pull' && {
              pull_request: { url: `${store.urls().api}${store.repoPath}/pulls/${number}` },
            }),
          },
          comment: { id: comment?.id ?? 0, body: comment?.body ?? '' },
        },
        sender,
      );
      return;
    }
    const action = part === 'labels' ? (method === 'DELETE' ? 'unlabeled' : 'labeled') : 'edited';
    if (found.kind === 'issue') emit('issues', action, { issue: found.issue }, sender);
    else emit('pull_request', action, { number, pull_request: await pullPayload(number) }, sender);
  }

  /** A write under `/pulls`: opening (no number: the latest), editing, merging, reviews, review comments. */
  async function eventsForPullWrite(
    method: string,
    numbered: string | undefined,
    part: string | undefined,
    sender: FakeUser,
    latest: number,
  ): Promise<void> {
    const number = numbered === undefined ? latest : Number(numbered);
    const pull_request = await pullPayload(number);
    if (part === undefined) {
      emit('pull_request', numbered === undefined ? 'opened' : 'edited', { number, pull_request }, sender);
    } else if (part === 'merge') {
      emit('pull_request', 'closed', { number, pull_request }, sender);
    } else if (part === 'reviews') {
      emit('pull_request_review', method === 'PUT' ? 'dismissed' : 'submitted', { pull_request }, sender);
    } else {
      emit('pull_request_review_comment', 'created', { pull_request }, sender);
    }
  }

  const routes: FakeRoute[] = [
    route('POST', `${store.repoPath}/hooks`, async (_params, _query, body, caller) => {
      // Creating hooks needs admin rights on the repository: an App without them, a 404 (as GitHub).
      if (caller.viaApp) throw new HttpError(404, 'Not Found');
      const config = (body.config ?? {}) as Record<string, unknown>;
      const url = typeof config.url === 'string' ? config.url : '';
      if (!/^https?:\/\//.test(url)) {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'Hook', code: 'custom', message: 'Config must contain URL for webhooks' }],
        });
      }
      const hook: FakeHook = {
        id: nextHookID++,
        active: body.active !== false,
        events: Array.isArray(body.events) ? body.events.map(String) : ['push'],
        url,
        secret: typeof config.secret === 'string' ? config.secret : '',
      };
      hooks.push(hook);
      // "When you create a new webhook, we'll send you a simple ping event."
      emit(
        'ping',
        null,
        { zen: 'Keep it logically awesome.', hook_id: hook.id, hook: hookJSON(hook) },
        caller.user,
      );
      return ok(hookJSON(hook), 201);
    }),
    route('PATCH', `${store.repoPath}/hooks/(\\d+)`, async ([hookID], _query, body, caller) => {
      if (caller.viaApp) throw new HttpError(404, 'Not Found');
      const hook = hooks.find((candidate) => candidate.id === Number(hookID));
      if (hook === undefined) throw new HttpError(404, 'Not Found');
      const config = (body.config ?? {}) as Record<string, unknown>;
      if (typeof config.url === 'string') hook.url = config.url;
      if (typeof config.secret === 'string') hook.secret = config.secret;
      if (Array.isArray(body.events)) hook.events = body.events.map(String);
      if (typeof body.active === 'boolean') hook.active = body.active;
      return ok(hookJSON(hook));
    }),
    route('GET', `${store.repoPath}/hooks`, async (_params, query) =>
      store.paginate(hooks, query, `${store.repoPath}/hooks`, hookJSON),
    ),
  ];

  function hookJSON(hook: FakeHook) {
    return {
      type: 'Repository',
      id: hook.id,
      name: 'web',
      active: hook.active,
      events: hook.events,
      // The secret is never returned in clear.
      config: {
        url: hook.url,
        content_type: 'json',
        insecure_ssl: '0',
        ...(hook.secret !== '' && { secret: '********' }),
      },
      url: `${store.urls().api}${store.repoPath}/hooks/${hook.id}`,
      ping_url: `${store.urls().api}${store.repoPath}/hooks/${hook.id}/pings`,
    };
  }

  return {
    hooks,
    deliveries,
    afterWrite(method, path, sender) {
      if (hooks.length === 0) return;
      // The issue or pull request a POST just created is the newest one now, not when the queue gets to it.
      const latest = Math.max(0, ...store.issues.keys());
      queue = queue.then(() => eventsForWrite(method, path, sender, latest)).catch(() => {});
    },
    emit,
    addHook(fields) {
      const hook: FakeHook = { id: nextHookID++, active: true, ...fields };
      hooks.push(hook);
      return hook;
    },
    pullPayload,
    async redeliver(deliveryID) {
      const original = sent.get(deliveryID);
      if (original === undefined) throw new Error(`no delivery ${deliveryID}`);
      const status = await post(original.hook, original.event, deliveryID, original.body);
      deliveries.push({
        id: deliveryID,
        hookID: original.hook.id,
        event: original.event,
        action: null,
        status,
        at: Date.now(),
      });
      return status;
    },
    settled: async () => {
      let current: Promise<void>;
      do {
        current = queue;
        await current;
      } while (current !== queue);
    },
    routes,
  };
}
