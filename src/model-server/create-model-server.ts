import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isRecord } from '../shared/is-record.ts';
import { applyTemplate } from './apply-template.ts';
import { buildApiErrorBody } from './build-api-error-body.ts';
import { buildAssistantMessage } from './build-assistant-message.ts';
import { buildConversationView, type ModelApi } from './build-conversation-view.ts';
import { buildErrorBody } from './build-error-body.ts';
import { buildGeminiResponse, buildGeminiSseEvents } from './build-gemini-response.ts';
import { buildReport, type ModelServerReport } from './build-report.ts';
import { buildResponseObject } from './build-response-object.ts';
import { buildResponsesSseEvents } from './build-responses-sse-events.ts';
import { buildSideReply } from './build-side-reply.ts';
import { buildSseEvents, formatSseEvent, type SseEvent } from './build-sse-events.ts';
import { checkExpectations } from './check-expectations.ts';
import { checkStructuredOutput } from './check-structured-output.ts';
import { describeUnroutedRequest } from './describe-unrouted-request.ts';
import { fillNullableProperties } from './fill-nullable-properties.ts';
import { findRoute } from './find-route.ts';
import { parseScenario } from './parse-scenario.ts';
import type { RecordedRequest } from './recorded-request.ts';
import type { RequestView } from './request-view.ts';
import type { ErrorSpec } from './scenario-schema.ts';
import type { Route, Scenario, Step, StepReply } from './scenario-types.ts';

export interface ModelServerOptions {
  /** Values for `{{name}}` placeholders in replies; override the scenario's `vars`. */
  vars?: Record<string, string>;
  /** Overrides the scenario's `onUnmetExpectation` (default `record`). */
  onUnmetExpectation?: 'record' | 'reject';
  /** Port on 127.0.0.1 (default 0: a free port). */
  port?: number;
  /** After `close()`, connections still open after this many ms are destroyed (default 2000). */
  closeGraceMs?: number;
  /** Called with one line per request (for debugging a scenario). */
  log?: (line: string) => void;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` — the value for ANTHROPIC_BASE_URL. */
  url: string;
  port: number;
  /** Every request received, in order of arrival (live). */
  requests: readonly RecordedRequest[];
  /** The `step` requests of one route, in order. */
  requestsFor(route: string): RecordedRequest[];
  report(): ModelServerReport;
  /**
   * Stops accepting connections, cuts `delayMs` waits (those requests are dropped), lets answers already being
   * streamed finish, closes idle keep-alive connections and resolves once every connection is closed
   * (connections still open after `closeGraceMs` are destroyed). Idempotent.
   */
  close(): Promise<void>;
}

/** The conversation APIs served: Anthropic Messages (`/v1/messages`) and OpenAI Responses (`/v1/responses`). */
type Api = ModelApi;

/** The Gemini API's conversation paths, as gemini-cli calls them (`…:streamGenerateContent?alt=sse`). */
const GEMINI_PATH = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(?:streamGenerateContent|generateContent)$/;
const GEMINI_COUNT_PATH = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:countTokens$/;

/** Model ids answered by `GET /v1/models` (the CLI's default model is echoed in replies anyway). */
const LISTED_MODELS = ['claude-scripted'];
const SERVER_TAG = '[flotilla model-server]';

/**
 * Starts a scripted Anthropic-Messages-compatible server on 127.0.0.1 for `scenario` (validated; throws a
 * `ScenarioError` naming the bad fields). Conversation requests are routed (first matching route) and
 * answered by the step whose index is the number of assistant turns already in the request, so CLI retries
 * replay the same step. Side requests never consume a step.
 */
export async function createModelServer(
  scenarioInput: Scenario,
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  const scenario = parseScenario(scenarioInput);
  const onUnmetExpectation = options.onUnmetExpectation ?? scenario.onUnmetExpectation ?? 'record';
  const vars = { ...scenario.vars, ...options.vars };
  const startedAt = Date.now();
  const requests: RecordedRequest[] = [];
  const served = new Map<string, number[]>(
    scenario.routes.map((route) => [route.name, route.steps.map(() => 0)]),
  );
  const unroutedExcerpts = new Map<number, { system: string; firstUser: string }>();
  /** Aborted by close(): cuts delays before an answer starts (answers being streamed are let finish). */
  const closingController = new AbortController();
  /** Open sockets with the number of answers in progress on each (0: idle keep-alive or not used yet). */
  const sockets = new Map<Socket, number>();
  /** Responses not yet closed; close() resolves only once all of them are (and recorded). */
  const openResponses = new Set<Promise<void>>();
  let closing = false;
  let closePromise: Promise<void> | undefined;

  const log = (line: string): void => options.log?.(line);

  const server = createServer((req, res) => {
    const socket = req.socket;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    const clientGone = new AbortController();
    const record: RecordedRequest = {
      seq: requests.length + 1,
      atMs: Date.now() - startedAt,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      kind: 'unknown',
      body: undefined,
      headers: req.headers,
      status: 0,
      unmet: [],
      aborted: false,
    };
    requests.push(record);
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    openResponses.add(closed);
    void closed.then(() => openResponses.delete(closed));
    res.on('close', () => {
      record.aborted = !res.writableFinished;
      record.durationMs = Date.now() - startedAt - record.atMs;
      if (record.aborted) clientGone.abort();
      log(describe(record));
      if (sockets.has(socket)) sockets.set(socket, Math.max(0, (sockets.get(socket) ?? 1) - 1));
      if (closing) setImmediate(destroyIdleSockets);
    });
    if (closing) res.setHeader('connection', 'close');
    handle(req, res, record, clientGone.signal).catch((error: unknown) => {
      log(`${SERVER_TAG} internal error: ${String(error)}`);
      if (res.headersSent) return void res.destroy();
      record.unmet.push(`internal error: ${String(error)}`);
      sendJson(res, record, 500, buildErrorBody(500, `${SERVER_TAG} internal error: ${String(error)}`), {
        'x-should-retry': 'false',
      });
    });
  });

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    signal: AbortSignal,
  ): Promise<void> {
    const rawBody = await readBody(req);
    record.body = parseJson(rawBody);
    const { method } = record;
    const path = new URL(record.url, 'http://127.0.0.1').pathname;

    if (method === 'POST' && path === '/v1/messages')
      return handleConversation('messages', record, res, signal);
    if (method === 'POST' && path === '/v1/responses') {
      return handleConversation('responses', record, res, signal);
    }
    if (method === 'POST' && GEMINI_PATH.test(path))
      return handleConversation('generate-content', record, res, signal);
    if (method === 'POST' && GEMINI_COUNT_PATH.test(path)) {
      record.kind = 'count_tokens';
      return sendJson(res, record, 200, { totalTokens: Math.max(1, Math.ceil(rawBody.length / 4)) });
    }
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      record.kind = 'count_tokens';
      return sendJson(res, record, 200, { input_tokens: Math.max(1, Math.ceil(rawBody.length / 4)) });
    }
    if (method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) {
      record.kind = 'models';
      if (path === '/v1/models') {
        const data = LISTED_MODELS.map(buildModelInfo);
        return sendJson(res, record, 200, {
          data,
          has_more: false,
          first_id: data[0]?.id,
          last_id: data.at(-1)?.id,
        });
      }
      return sendJson(res, record, 200, buildModelInfo(decodeURIComponent(path.slice('/v1/models/'.length))));
    }
    if (method === 'HEAD' || (method === 'GET' && path === '/')) {
      record.kind = 'probe';
      record.status = 200;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(method === 'HEAD' ? undefined : 'ok');
      return;
    }
    record.kind = 'unknown';
    sendJson(res, record, 404, buildErrorBody(404, `${SERVER_TAG} no route ${method} ${path}`));
  }

  /** The scripted step this request is at, or null once it was refused (no route, script exhausted). */
  function findStep(
    api: Api,
    res: ServerResponse,
    record: RecordedRequest,
    view: RequestView,
  ): { route: Route; step: Step } | null {
    const route = findRoute(scenario.routes, view);
    if (route === undefined) {
      record.kind = 'unrouted';
      unroutedExcerpts.set(record.seq, { system: excerpt(view.system), firstUser: excerpt(view.firstUser) });
      sendRefusal(
        api,
        res,
        record,
        `no route matches this request — ${describeUnroutedRequest(view)} (routes: ${routeNames()})`,
      );
      return null;
    }
    record.route = route.name;
    record.stepIndex = view.assistantTurns;
    const step = route.steps[view.assistantTurns];
    if (step === undefined) {
      record.kind = 'exhausted';
      sendRefusal(
        api,
        res,
        record,
        `script exhausted: route '${route.name}' has ${route.steps.length} step(s), this request is at step ` +
          `${view.assistantTurns} (assistant turns already in the request)`,
      );
      return null;
    }
    record.kind = 'step';
    if (step.name !== undefined) record.stepName = step.name;

    return { route, step };
  }

  /** The step's reply, its structured output checked; null once an error or a refusal was sent instead. */
  function buildCheckedReply(
    api: Api,
    res: ServerResponse,
    record: RecordedRequest,
    at: { route: Route; step: Step; view: RequestView },
  ): StepReply | null {
    const { route, step, view } = at;
    let reply = buildReply(step, view, record);
    if (reply === undefined) {
      const message = `${SERVER_TAG} ${record.unmet.at(-1) ?? 'no reply'}`;
      sendJson(res, record, 500, buildApiErrorBody(api, 500, message, undefined, record.seq), {
        'x-should-retry': 'false',
      });
      return null;
    }
    // Strict structured output: a real model sends the schema's nullable properties as null; so does a script.
    if (api === 'responses' && reply.structuredOutput !== undefined && view.outputSchema !== undefined)
      reply = {
        ...reply,
        structuredOutput: fillNullableProperties(reply.structuredOutput, view.outputSchema),
      };
    const outputProblems = checkStructuredOutput(reply, view);
    record.unmet.push(...outputProblems);
    if (outputProblems.length > 0 && onUnmetExpectation === 'reject') {
      sendRefusal(
        api,
        res,
        record,
        `bad structured output for route '${route.name}' step ${view.assistantTurns}: ${outputProblems.join('; ')}`,
      );
      return null;
    }
    return reply;
  }

  /** A reply in the API's wire form: a Gemini response, a Responses object or an Anthropic message. */
  function sendReply(
    api: Api,
    res: ServerResponse,
    record: RecordedRequest,
    reply: StepReply,
    stream: { model: string; view: RequestView; chunkDelayMs: number | undefined; signal: AbortSignal },
  ): Promise<void> {
    const { model, view, chunkDelayMs, signal } = stream;
    if (api === 'generate-content') {
      const response = buildGeminiResponse(reply, model, record.seq);
      return sendStream(res, record, response, buildGeminiSseEvents, view.stream, chunkDelayMs, signal);
    }
    if (api === 'responses') {
      const response = buildResponseObject(reply, model, record.seq);
      return sendStream(res, record, response, buildResponsesSseEvents, view.stream, chunkDelayMs, signal);
    }
    const message = buildAssistantMessage(reply, model, record.seq);
    return sendStream(res, record, message, buildSseEvents, view.stream, chunkDelayMs, signal);
  }

  /**
   * A conversation request on either API: the same routes, steps, expectations and errors; only the
   * request view, the reply's wire form and the error body differ.
   */
  async function handleConversation(
    api: Api,
    record: RecordedRequest,
    res: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    if (!isRecord(record.body)) {
      record.kind = 'invalid';
      return sendRefusal(api, res, record, 'the request body is not a JSON object');
    }
    const view = buildConversationView(api, record.body, record);
    const model = view.model ?? LISTED_MODELS[0] ?? 'claude-scripted';

    if (view.isSide) {
      record.kind = 'side';
      const text = buildSideReply(scenario.side?.text, view.sideSchema);
      // Side requests are answered in the Anthropic form on every API but Gemini's, as before.
      return sendReply(
        api === 'generate-content' ? api : 'messages',
        res,
        record,
        { text },
        {
          model,
          view,
          chunkDelayMs: undefined,
          signal,
        },
      );
    }

    const found = findStep(api, res, record, view);
    if (found === null) return;
    const { route, step } = found;

    record.unmet.push(...safeCheck(step, view));
    if (record.unmet.length > 0 && onUnmetExpectation === 'reject') {
      return sendRefusal(
        api,
        res,
        record,
        `unmet expectation for route '${route.name}' step ${view.assistantTurns}: ${record.unmet.join('; ')}`,
      );
    }
    const counts = served.get(route.name) ?? [];
    const attempt = (counts[view.assistantTurns] ?? 0) + 1;
    counts[view.assistantTurns] = attempt;
    record.attempt = attempt;

    const delay = AbortSignal.any([signal, closingController.signal]);
    if (!(await sleep(step.delayMs ?? 0, delay, step.hold))) return abandon(res);
    if (step.error !== undefined && (step.error.times === undefined || attempt <= step.error.times)) {
      return sendStepError(api, res, record, step.error);
    }
    const reply = buildCheckedReply(api, res, record, { route, step, view });
    if (reply === null) return;
    return sendReply(api, res, record, reply, { model, view, chunkDelayMs: step.chunkDelayMs, signal });
  }

  /** The step's reply with `{{placeholders}}` filled in; undefined (and recorded) if `respond` threw. */
  function buildReply(step: Step, view: RequestView, record: RecordedRequest): StepReply | undefined {
    let reply: StepReply;
    try {
      reply = step.respond !== undefined ? step.respond(view) : step;
    } catch (error) {
      record.unmet.push(`respond() threw: ${String(error)}`);
      return undefined;
    }
    const builtIns: Record<string, string> = {
      route: record.route ?? '',
      step: String(record.stepIndex ?? ''),
      ...(view.cwd === undefined ? {} : { cwd: view.cwd }),
      ...(view.sessionId === undefined ? {} : { sessionId: view.sessionId }),
    };
    const unknown = new Set<string>();
    const filled = applyTemplate(
      {
        text: reply.text,
        content: reply.content,
        structuredOutput: reply.structuredOutput,
        stopReason: reply.stopReason,
        usage: reply.usage,
      },
      { ...builtIns, ...vars },
      unknown,
    );
    for (const name of unknown) record.unmet.push(`unknown template variable {{${name}}} in the reply`);
    return dropUndefined(filled);
  }

  function safeCheck(step: Step, view: RequestView): string[] {
    try {
      return checkExpectations(step, view);
    } catch (error) {
      return [`check() threw: ${String(error)}`];
    }
  }

  function sendRefusal(api: Api, res: ServerResponse, record: RecordedRequest, message: string): void {
    sendJson(
      res,
      record,
      400,
      buildApiErrorBody(api, 400, `${SERVER_TAG} ${message}`, undefined, record.seq),
      {
        'x-should-retry': 'false',
      },
    );
  }

  function sendStepError(api: Api, res: ServerResponse, record: RecordedRequest, error: ErrorSpec): void {
    const headers: OutgoingHttpHeaders = { ...error.headers };
    if (error.retryAfterMs !== undefined) {
      headers['retry-after-ms'] = String(error.retryAfterMs);
      headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
    }
    if (error.shouldRetry !== undefined) headers['x-should-retry'] = String(error.shouldRetry);
    const message = error.message ?? `${SERVER_TAG} scripted error ${error.status}`;
    sendJson(
      res,
      record,
      error.status,
      buildApiErrorBody(api, error.status, message, error.type, record.seq),
      headers,
    );
  }

  function sendJson(
    res: ServerResponse,
    record: RecordedRequest,
    status: number,
    body: unknown,
    headers: OutgoingHttpHeaders = {},
  ): void {
    const text = JSON.stringify(body);
    record.status = status;
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'request-id': `req_scripted_${record.seq}`,
      ...headers,
    });
    res.end(text);
  }

  /** Sends `answer` as one JSON body, or (`stream`) as the SSE events `toEvents` derives from it. */
  async function sendStream<Answer>(
    res: ServerResponse,
    record: RecordedRequest,
    answer: Answer,
    toEvents: (answer: Answer) => SseEvent[],
    stream: boolean,
    chunkDelayMs: number | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    record.status = 200;
    if (!stream) {
      const text = JSON.stringify(answer);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        'request-id': `req_scripted_${record.seq}`,
      });
      res.end(text);
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': `req_scripted_${record.seq}`,
    });
    const events = toEvents(answer);
    for (const [index, event] of events.entries()) {
      if (index > 0 && !(await sleep(chunkDelayMs ?? 0, signal))) return abandon(res);
      res.write(formatSseEvent(event));
    }
    res.end();
  }

  function routeNames(): string {
    return scenario.routes.map((route) => route.name).join(', ');
  }

  /**
   * Destroys sockets with no answer in progress: keep-alive ones, and ones a client opened without sending a
   * request yet (fetch opens those; `server.closeIdleConnections()` does not count them as idle).
   */
  function destroyIdleSockets(): void {
    for (const [socket, busy] of sockets) if (busy === 0) socket.destroy();
  }

  server.on('connection', (socket: Socket) => {
    sockets.set(socket, 0);
    socket.once('close', () => sockets.delete(socket));
  });
  // With HTTPS_PROXY pointed at the server, anything a client sends outside 127.0.0.1 arrives here as a
  // CONNECT: refuse it and record it, so a test's report shows traffic that would have left the machine.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const record: RecordedRequest = {
      seq: requests.length + 1,
      atMs: Date.now() - startedAt,
      method: 'CONNECT',
      url: req.url ?? '',
      kind: 'connect',
      body: undefined,
      headers: req.headers,
      status: 502,
      unmet: [],
      aborted: false,
      durationMs: 0,
    };
    requests.push(record);
    log(describe(record));
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const graceMs = options.closeGraceMs ?? 2000;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestsFor: (route) => requests.filter((request) => request.kind === 'step' && request.route === route),
    report: () => buildReport({ routes: scenario.routes, requests, served, unroutedExcerpts }),
    close: () => {
      if (closePromise !== undefined) return closePromise;
      closing = true;
      const serverClosed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close((error) => {
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        });
        closingController.abort();
        destroyIdleSockets();
      });
      closePromise = serverClosed.then(async () => {
        await Promise.all(openResponses);
      });
      return closePromise;
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** True after `ms` and then `hold()` (if given); false as soon as `signal` aborts (client gone, closing). */
function sleep(ms: number, signal: AbortSignal, hold?: () => Promise<unknown>): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0 && hold === undefined) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      const done = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(!signal.aborted);
      };
      if (hold === undefined) done();
      else hold().then(done, done);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abandon(res: ServerResponse): void {
  res.destroy();
}

function buildModelInfo(id: string): { type: 'model'; id: string; display_name: string; created_at: string } {
  return { type: 'model', id, display_name: `Scripted (${id})`, created_at: '2025-01-01T00:00:00Z' };
}

function excerpt(text: string, half = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > half * 2 ? `${flat.slice(0, half)}…${flat.slice(-half)}` : flat;
}

function dropUndefined(reply: StepReply): StepReply {
  return Object.fromEntries(Object.entries(reply).filter(([, value]) => value !== undefined)) as StepReply;
}

function describe(record: RecordedRequest): string {
  const where =
    record.route === undefined ? record.kind : `${record.kind} ${record.route}#${String(record.stepIndex)}`;
  const flags = `${record.aborted ? ' aborted' : ''}${record.unmet.length > 0 ? ` unmet: ${record.unmet.join('; ')}` : ''}`;
  return `${SERVER_TAG} #${record.seq} ${record.method} ${record.url} → ${where} (${record.status})${flags}`;
}
