/**
 * GitHub webhooks benchmark (issue #32 §3): how long the engine takes to see a change a human makes on
 * GitHub (an issue's labels), with the polls alone (default interval 30 s) and with the fake GitHub delivering
 * signed webhooks to the receiver `flotilla run --serve` mounts; and the requests the poll timers send per
 * hour either way (the timers run 4× slower while deliveries flow). Everything on 127.0.0.1: the fake GitHub,
 * the real GitHub provider and engine. Run: npm run bench:github-webhooks (SAMPLES=4 by default).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { withChangeFeed } from '../../src/app/with-change-feed.ts';
import { createFakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { createEngine } from '../../src/engine/create-engine.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createGitHubProvider } from '../../src/providers/github/create-github-provider.ts';
import {
  createGitHubWebhookReceiver,
  WEBHOOK_POLL_FACTOR,
} from '../../src/providers/github/webhooks/create-github-webhook-receiver.ts';
import { WEBHOOK_EVENTS } from '../../src/providers/github/webhooks/map-webhook-delivery.ts';
import { createScriptedAdapter } from '../../src/runtimes/scripted/create-scripted-adapter.ts';

const TOKEN = 'ghp_bench_webhooks';
const SECRET = 'bench-webhook-secret';
const SAMPLES = Number(process.env.SAMPLES ?? 4);
const INTERVAL_S = 30;

async function measure(webhooks: boolean) {
  const github = await createFakeGitHub({ token: TOKEN });
  const issue = github.human.createIssue({
    title: 'steered by hand',
    labels: ['task:implement', 'status:blocked'],
  });
  const provider = createGitHubProvider({
    owner: github.owner,
    repo: github.repo,
    apiUrl: github.apiUrl,
    specsDir: 'docs/specs',
    scratchDir: tmpdir(),
    defaultBranch: 'main',
    env: { GITHUB_TOKEN: TOKEN },
    logger: silentLogger,
  });
  const receiver = createGitHubWebhookReceiver({
    secret: SECRET,
    owner: github.owner,
    repo: github.repo,
    logger: silentLogger,
  });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = receiver.receive({
        header: (name) => request.headers[name] as string | undefined,
        body: new Uint8Array(Buffer.concat(chunks)),
      });
      response.writeHead(answer.status).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  if (webhooks) {
    const { port } = server.address() as AddressInfo;
    github.webhooks.addHook({
      url: `http://127.0.0.1:${port}/`,
      secret: SECRET,
      events: [...WEBHOOK_EVENTS],
    });
  }
  const adapter = createScriptedAdapter({});
  const engine = createEngine({
    provider: webhooks ? withChangeFeed(provider, receiver) : provider,
    createRuntimeAdapters: () => ({ planner: adapter, implementor: adapter, reviewer: adapter }),
    logger: silentLogger,
    pollIntervals: { workItems: INTERVAL_S, revisions: INTERVAL_S, specs: 2 * INTERVAL_S },
    shutdownTimeout: 5,
  });
  let seen: ((label: string) => void) | null = null;
  engine.onEvent((event) => {
    if (event.type === 'workItemChanged' && event.workItemID === String(issue) && event.workItem !== null)
      seen?.(event.workItem.priority ?? '');
  });
  await engine.start();
  const latencies: number[] = [];
  const requestsBefore = github.requests.length;
  const startedAt = performance.now();
  for (let sample = 0; sample < SAMPLES; sample++) {
    // A random moment within the poll interval, as a human's edit would land.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3000));
    const priority = sample % 2 === 0 ? 'high' : 'low';
    const arrived = new Promise<void>((resolve) => {
      seen = (label) => {
        if (label === priority) resolve();
      };
    });
    const at = performance.now();
    github.human.setIssueLabels(issue, ['task:implement', 'status:blocked', `priority:${priority}`]);
    await arrived;
    latencies.push(performance.now() - at);
  }
  const minutes = (performance.now() - startedAt) / 60_000;
  const requests = github.requests.length - requestsBefore;
  await engine.stop();
  server.close();
  await github.close();
  return { latencies, requestsPerMinute: requests / minutes, factor: receiver.pollIntervalFactor() };
}

const format = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`);
for (const webhooks of [true, false]) {
  const { latencies, requestsPerMinute, factor } = await measure(webhooks);
  const sorted = [...latencies].sort((a, b) => a - b);
  const mean = latencies.reduce((sum, value) => sum + value, 0) / latencies.length;
  console.log(
    `${webhooks ? 'webhooks' : 'polls only'}: change → engine event over ${latencies.length} edits: mean ${format(mean)}, min ${format(sorted[0] ?? 0)}, max ${format(sorted.at(-1) ?? 0)}; ${requestsPerMinute.toFixed(1)} requests/min to the fake (deliveries' polls included); poll factor at the end ${factor}`,
  );
}
console.log(
  `poll timers while webhooks flow: every ${INTERVAL_S * WEBHOOK_POLL_FACTOR} s instead of ${INTERVAL_S} s (×${WEBHOOK_POLL_FACTOR}): the idle revisions poll's GraphQL points per hour ${3600 / INTERVAL_S} → ${3600 / (INTERVAL_S * WEBHOOK_POLL_FACTOR)}`,
);
