import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FlotillaConfig } from '../../config/index.ts';
// The one production edge to the fake GitHub (test/architecture/dependency-rules.ts says why): the demo
// shows the GitHub loop without an account.
import { createFakeGitHub, type FakeGitHub } from '../../demo/fake-github/create-fake-github.ts';
import { type Logger, silentLogger } from '../../logging/logger.ts';
import { runGit } from '../../process/run-command.ts';
import {
  DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS,
  DEFAULT_MENTION_TRIGGER,
} from '../../providers/github/github-config-schema.ts';
import {
  createGitHubWebhookReceiver,
  type GitHubWebhookReceiver,
} from '../../providers/github/webhooks/create-github-webhook-receiver.ts';
import { WEBHOOK_EVENTS } from '../../providers/github/webhooks/map-webhook-delivery.ts';

/** A made-up token: the fake accepts only it, and it means nothing anywhere else. */
const DEMO_TOKEN = 'flotilla-demo-token';
/** `github.writeIntervalMs` against the fake (GitHub's own default is 1000 ms). */
const DEMO_WRITE_INTERVAL_MS = 0;
/**
 * How often the fake CI settles what is queued besides pull request heads (its own runs finish as they are
 * first read: `ciSettlesAtOnce`), and tells webhooks of pushes.
 */
const CI_SETTLE_INTERVAL_MS = 1000;

export interface DemoGitHub {
  fake: FakeGitHub;
  /** The webhook receiver the fake delivers to (the engine's change feed); null with webhooks off. */
  changeFeed: GitHubWebhookReceiver | null;
  /** The demo repository's config, pointed at the fake. */
  config: FlotillaConfig;
  /** Where the control plane reads the token. */
  providerEnv: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The built-in fake GitHub on 127.0.0.1 behind `flotilla demo --provider github`: the demo repository's
 * `main` is pushed to it (same commits, so agents' worktrees and pull requests share a base) and becomes the
 * clone's `origin`; its CI has passed a pull request head by the time it is first read (the local demo's checks
 * take a fraction of a second too: the two loops wait for the same work).
 */
export async function startDemoGitHub(
  repoRoot: string,
  config: FlotillaConfig,
  gitEnv: Readonly<Record<string, string>>,
  options: { webhooks: boolean; logger: Logger } = { webhooks: false, logger: silentLogger },
): Promise<DemoGitHub> {
  const fake = await createFakeGitHub({
    token: DEMO_TOKEN,
    ci: 'passing',
    ciSettlesAtOnce: true,
    defaultBranch: config.defaultBranch,
  });
  try {
    const git = (args: string[]) => runGit(args, { cwd: repoRoot, env: gitEnv });
    await git(['push', '--quiet', '--force', fake.gitUrl, `${config.defaultBranch}:${config.defaultBranch}`]);
    await git(['remote', 'add', 'origin', fake.gitUrl]);
  } catch (error) {
    await fake.close();
    throw error;
  }
  // GitHub's webhooks, as `run --serve` receives them: the fake signs and POSTs a delivery per change to a
  // receiver on 127.0.0.1, whose verified deliveries make the engine poll at once.
  const hook = options.webhooks ? await startDemoWebhookReceiver(fake, options.logger) : null;
  let settling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    settling = settling.then(() => fake.settleChecks()).catch(() => {});
  }, CI_SETTLE_INTERVAL_MS);
  timer.unref();
  return {
    fake,
    changeFeed: hook?.receiver ?? null,
    config: {
      ...config,
      provider: 'github',
      github: {
        owner: fake.owner,
        repo: fake.repo,
        apiUrl: fake.apiUrl,
        gitUrl: fake.gitUrl,
        mergeMethod: 'merge',
        noChecksGrace: 120,
        answerAuthorAssociations: [...DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS],
        mentionTrigger: DEFAULT_MENTION_TRIGGER,
        // The fake has no secondary rate limits: the demo does not space its writes a second apart as it
        // must on GitHub (the default), which made its GitHub loop ~4x slower than the local one.
        writeIntervalMs: DEMO_WRITE_INTERVAL_MS,
      },
    },
    providerEnv: { FLOTILLA_GITHUB_TOKEN: DEMO_TOKEN },
    async close() {
      clearInterval(timer);
      await settling;
      await hook?.close();
      await fake.close();
    },
  };
}

/** A random secret (the demo's hook only), a receiver on 127.0.0.1:0, and the fake's hook pointing at it. */
async function startDemoWebhookReceiver(
  fake: FakeGitHub,
  logger: Logger,
): Promise<{ receiver: GitHubWebhookReceiver; close(): Promise<void> }> {
  const secret = randomBytes(20).toString('hex');
  const receiver = createGitHubWebhookReceiver({ secret, owner: fake.owner, repo: fake.repo, logger });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = receiver.receive({
        header: (name) => {
          const value = request.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        body: new Uint8Array(Buffer.concat(chunks)),
      });
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.webhooks.addHook({
    url: `http://127.0.0.1:${port}/webhooks/github`,
    secret,
    events: [...WEBHOOK_EVENTS],
  });
  return {
    receiver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
