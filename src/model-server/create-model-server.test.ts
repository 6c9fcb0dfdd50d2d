import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleMessage } from './assemble-message.ts';
import type { AssistantMessage } from './build-assistant-message.ts';
import type { SseEvent } from './build-sse-events.ts';
import { createModelServer, type ModelServer, type ModelServerOptions } from './create-model-server.ts';
import { loadScenarioFile } from './load-scenario-file.ts';
import { ScenarioError } from './parse-scenario.ts';
import { parseSse } from './parse-sse.ts';
import type { Scenario } from './scenario-types.ts';

const TOOLS = [
  { name: 'Bash', description: 'run', input_schema: { type: 'object' } },
  { name: 'Write', description: 'write', input_schema: { type: 'object' } },
];

interface BodyInput {
  system?: string;
  prompt?: string;
  /** Messages after the first user message. */
  history?: unknown[];
  tools?: unknown[];
  stream?: boolean;
  extra?: Record<string, unknown>;
}

function buildBody(input: BodyInput = {}): Record<string, unknown> {
  return {
    model: 'claude-test-model',
    max_tokens: 1000,
    stream: input.stream ?? true,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.330; cc_entrypoint=sdk-ts;' },
      { type: 'text', text: input.system ?? 'You are a Claude agent.' },
    ],
    tools: input.tools ?? TOOLS,
    messages: [
      { role: 'user', content: [{ type: 'text', text: input.prompt ?? 'do the thing' }] },
      ...(input.history ?? []),
    ],
    ...input.extra,
  };
}

function toolTurn(id: string, result: string, isError = false): unknown[] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'echo' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }] },
  ];
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  events: SseEvent[];
  message: AssistantMessage | undefined;
  json: unknown;
}

async function post(
  server: ModelServer,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${server.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const isSse = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const events = isSse ? parseSse(text) : [];
  const json = isSse ? undefined : JSON.parse(text);
  const message = isSse ? assembleMessage(events) : response.ok ? (json as AssistantMessage) : undefined;
  return { status: response.status, headers: response.headers, text, events, message, json };
}

const servers: ModelServer[] = [];
async function start(scenario: Scenario, options?: ModelServerOptions): Promise<ModelServer> {
  const server = await createModelServer(scenario, options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const oneRoute = (steps: Scenario['routes'][number]['steps']): Scenario => ({
  routes: [{ name: 'main', steps }],
});

describe('createModelServer — replies', () => {
  it('streams a text reply with the full SSE event sequence', async () => {
    const server = await start(oneRoute([{ text: 'Hello from the script' }]));
    const answer = await post(server, buildBody());
    expect(answer.status).toBe(200);
    expect(answer.events.map((event) => event.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(answer.message?.content).toEqual([{ type: 'text', text: 'Hello from the script' }]);
    expect(answer.message?.model).toBe('claude-test-model');
    expect(answer.message?.stop_reason).toBe('end_turn');
    const delta = answer.events.find((event) => event.event === 'message_delta');
    expect(delta?.data).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 20 } });
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
  });

  it('answers with a JSON message when stream is false', async () => {
    const server = await start(oneRoute([{ text: 'plain', usage: { input_tokens: 7, output_tokens: 3 } }]));
    const answer = await post(server, buildBody({ stream: false }));
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'plain' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 7, output_tokens: 3 },
    });
  });

  it('streams single and parallel tool_use blocks with input_json_delta', async () => {
    const server = await start(
      oneRoute([
        {
          content: [
            { type: 'text', text: 'Running two tools' },
            { type: 'tool_use', name: 'Bash', input: { command: 'echo one', description: 'one' } },
            { type: 'tool_use', name: 'Write', input: { file_path: '/tmp/x', content: 'a "quoted"\nline' } },
          ],
        },
      ]),
    );
    const answer = await post(server, buildBody());
    const message = answer.message!;
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Running two tools' },
      {
        type: 'tool_use',
        id: 'toolu_scripted_1_1',
        name: 'Bash',
        input: { command: 'echo one', description: 'one' },
      },
      {
        type: 'tool_use',
        id: 'toolu_scripted_1_2',
        name: 'Write',
        input: { file_path: '/tmp/x', content: 'a "quoted"\nline' },
      },
    ]);
    const starts = answer.events.filter((event) => event.event === 'content_block_start');
    expect(starts[1]?.data).toMatchObject({ content_block: { type: 'tool_use', name: 'Bash', input: {} } });
    const jsonDeltas = answer.events.filter(
      (event) =>
        event.event === 'content_block_delta' &&
        (event.data.delta as { type: string }).type === 'input_json_delta',
    );
    expect(jsonDeltas.length).toBeGreaterThan(2);
  });

  it('turns structuredOutput into a StructuredOutput tool call', async () => {
    const server = await start(oneRoute([{ structuredOutput: { status: 'completed', summary: 'done' } }]));
    const message = (await post(server, buildBody())).message!;
    expect(message.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_scripted_1_0',
        name: 'StructuredOutput',
        input: { status: 'completed', summary: 'done' },
      },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('fills {{placeholders}} from options.vars, scenario vars and the CLI environment block', async () => {
    const server = await start(
      {
        vars: { who: 'scenario', greeting: 'hi' },
        routes: [
          {
            name: 'main',
            steps: [
              {
                text: '{{greeting}} {{who}} in {{cwd}} on {{route}}#{{step}} {{nope}}',
                content: [
                  {
                    type: 'tool_use',
                    name: 'Write',
                    input: { file_path: '{{cwd}}/a.txt', content: '{{who}}' },
                  },
                ],
              },
            ],
          },
        ],
      },
      { vars: { who: 'options' } },
    );
    const body = buildBody({
      history: [
        {
          role: 'system',
          content: '# Environment\n - Primary working directory: /tmp/work-1\n - Platform: linux',
        },
      ],
    });
    const message = (await post(server, body)).message!;
    expect(message.content[0]).toEqual({
      type: 'text',
      text: 'hi options in /tmp/work-1 on main#0 {{nope}}',
    });
    expect(message.content[1]).toMatchObject({
      input: { file_path: '/tmp/work-1/a.txt', content: 'options' },
    });
    expect(server.report().problems).toEqual([
      "request #1 (route 'main' step 0): unmet expectation: unknown template variable {{nope}} in the reply",
    ]);
  });

  it('builds replies in code with respond() and checks with check()', async () => {
    const server = await start(
      oneRoute([
        {
          respond: (request) => ({ text: `you said: ${request.firstUser}` }),
          check: (request) => (request.toolNames.includes('Edit') ? undefined : 'Edit is not offered'),
        },
      ]),
    );
    const message = (await post(server, buildBody({ prompt: 'ping' }))).message!;
    expect(message.content).toEqual([{ type: 'text', text: 'you said: ping' }]);
    expect(server.report().unmetExpectations[0]?.failures).toEqual(['Edit is not offered']);
  });
});

describe('createModelServer — step indexing', () => {
  const threeSteps = oneRoute([
    { name: 'first', text: 'step zero' },
    { name: 'second', text: 'step one' },
    { name: 'third', text: 'step two' },
  ]);

  it('picks the step from the number of assistant turns in the request', async () => {
    const server = await start(threeSteps);
    const two = await post(server, buildBody({ history: [...toolTurn('t1', 'a'), ...toolTurn('t2', 'b')] }));
    const zero = await post(server, buildBody());
    const one = await post(server, buildBody({ history: toolTurn('t1', 'a') }));
    expect([zero, one, two].map((answer) => answer.message?.content[0])).toEqual([
      { type: 'text', text: 'step zero' },
      { type: 'text', text: 'step one' },
      { type: 'text', text: 'step two' },
    ]);
    expect(
      server.requests.map((request) => [request.kind, request.route, request.stepIndex, request.stepName]),
    ).toEqual([
      ['step', 'main', 2, 'third'],
      ['step', 'main', 0, 'first'],
      ['step', 'main', 1, 'second'],
    ]);
    expect(server.report().ok).toBe(true);
  });

  it('replays the same step for a retried request and counts attempts', async () => {
    const server = await start(threeSteps);
    const body = buildBody({ history: toolTurn('t1', 'a') });
    const first = await post(server, body);
    const retry = await post(server, body);
    expect(retry.message?.content).toEqual(first.message?.content);
    expect(server.requestsFor('main').map((request) => [request.stepIndex, request.attempt])).toEqual([
      [1, 1],
      [1, 2],
    ]);
    expect(server.report().unusedSteps).toEqual([
      { route: 'main', stepIndex: 0, stepName: 'first' },
      { route: 'main', stepIndex: 2, stepName: 'third' },
    ]);
  });

  it('ignores role:system messages when counting turns', async () => {
    const server = await start(threeSteps);
    const answer = await post(server, buildBody({ history: [{ role: 'system', content: 'env' }] }));
    expect(answer.message?.content[0]).toEqual({ type: 'text', text: 'step zero' });
  });

  it('does not count the placeholder turn the CLI adds when it resumes a session', async () => {
    const server = await start(threeSteps);
    const resumed = await post(
      server,
      buildBody({
        history: [
          ...toolTurn('t1', 'Structured output provided successfully'),
          { role: 'assistant', content: [{ type: 'text', text: 'No response requested.' }] },
          { role: 'user', content: 'Fix the failing tests.' },
        ],
      }),
    );
    expect(resumed.message?.content[0]).toEqual({ type: 'text', text: 'step one' });
  });

  it('answers side requests without consuming a step', async () => {
    const server = await start({ routes: [{ name: 'main', steps: [{ text: 'real step' }] }] });
    const noTools = await post(server, buildBody({ tools: [] }));
    const titled = await post(
      server,
      buildBody({
        extra: {
          output_config: {
            format: {
              type: 'json_schema',
              schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
            },
          },
        },
      }),
    );
    expect(noTools.message?.content).toEqual([{ type: 'text', text: 'Scripted reply' }]);
    expect(titled.message?.content).toEqual([{ type: 'text', text: '{"title":"Scripted reply"}' }]);
    expect(server.report().unusedSteps).toEqual([{ route: 'main', stepIndex: 0 }]);
    const real = await post(server, buildBody());
    expect(real.message?.content).toEqual([{ type: 'text', text: 'real step' }]);
    expect(server.requests.map((request) => request.kind)).toEqual(['side', 'side', 'step']);
    expect(server.report()).toMatchObject({ ok: true, counts: { total: 3, side: 2, step: 1 } });
  });

  it('uses the scenario side text when given', async () => {
    const server = await start({ side: { text: 'Custom title' }, routes: [{ name: 'main', steps: [] }] });
    const answer = await post(server, buildBody({ tools: [] }));
    expect(answer.message?.content).toEqual([{ type: 'text', text: 'Custom title' }]);
  });
});

describe('createModelServer — routing', () => {
  const multiRole: Scenario = {
    routes: [
      { name: 'subagent', match: { subagent: true }, steps: [{ text: 'sub' }] },
      { name: 'planner', match: { systemIncludes: 'You are the Planner' }, steps: [{ text: 'plan' }] },
      {
        name: 'item-1',
        match: { firstUserIncludes: '## Work Item #1' },
        steps: [{ text: 'impl 1' }, { text: 'impl 1 done' }],
      },
      {
        name: 'item-2',
        match: { firstUserIncludes: { regex: '## Work Item #2\\b' } },
        steps: [{ text: 'impl 2' }],
      },
      { name: 'by-session', match: { sessionId: 'session-42' }, steps: [{ text: 'session route' }] },
      { name: 'reviewer', match: { promptIncludes: ['Reviewer', 'Revision'] }, steps: [{ text: 'review' }] },
    ],
  };

  it('routes subagents, system prompts, first user messages, session ids and prompt text', async () => {
    const server = await start(multiRole);
    const subagentSystem =
      'x-anthropic-billing-header: cc_version=2.1; cc_is_subagent=true;\nYou are the Planner';
    const answers = await Promise.all([
      post(server, { ...buildBody(), system: subagentSystem }),
      post(server, buildBody({ system: 'You are the Planner of Flotilla' })),
      post(server, buildBody({ prompt: 'Implement this.\n## Work Item #1\nbody' })),
      post(server, buildBody({ prompt: 'Implement this.\n## Work Item #2\nbody' })),
      post(
        server,
        buildBody({ prompt: 'Implement this.\n## Work Item #1\nbody', history: toolTurn('t', 'ok') }),
      ),
      post(server, buildBody(), { 'x-claude-code-session-id': 'session-42' }),
      post(server, buildBody({ system: 'You are the Reviewer', prompt: '## Revision 3' })),
    ]);
    expect(answers.map((answer) => answer.message?.content[0])).toEqual(
      ['sub', 'plan', 'impl 1', 'impl 2', 'impl 1 done', 'session route', 'review'].map((text) => ({
        type: 'text',
        text,
      })),
    );
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
  });

  it('serves several concurrent sessions, each from its own steps', async () => {
    const server = await start(multiRole);
    const itemOne = (history: unknown[]) => buildBody({ prompt: '## Work Item #1', history });
    const itemTwo = buildBody({ prompt: '## Work Item #2' });
    const [a, b, c] = await Promise.all([
      post(server, itemOne([])),
      post(server, itemTwo),
      post(server, itemOne(toolTurn('t', 'ok'))),
    ]);
    expect([a, b, c].map((answer) => answer.message?.content[0])).toEqual([
      { type: 'text', text: 'impl 1' },
      { type: 'text', text: 'impl 2' },
      { type: 'text', text: 'impl 1 done' },
    ]);
    expect(server.requestsFor('item-1')).toHaveLength(2);
  });

  it('refuses a request no route matches with a 400 and reports it', async () => {
    const server = await start(multiRole);
    const answer = await post(server, buildBody({ prompt: 'something else' }));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(answer.json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('no route matches') },
    });
    const report = server.report();
    expect(report.unrouted).toEqual([
      { seq: 1, system: expect.stringContaining('You are a Claude agent.'), firstUser: 'something else' },
    ]);
    expect(report.problems[0]).toContain('request #1 matched no route');
  });

  it('names the agent and the first lines of the prompt when no route matches', async () => {
    const server = await start(multiRole);
    const system = '# Reviewer\n\nYou review one revision.\nA line.\nAnother line.';
    const prompt =
      '<system-reminder>\nAttribution…\n</system-reminder>\n## Work Item #7 — Add a thing\n\nBuild it.';
    const answer = await post(server, buildBody({ system, prompt }));
    expect(answer.status).toBe(400);
    const message = (answer.json as { error: { message: string } }).error.message;
    expect(message).toContain('no route matches this request — agent: reviewer;');
    expect(message).toContain('system prompt starts: "# Reviewer ⏎ You review one revision. ⏎ A line. ⏎ …"');
    expect(message).toContain('first user message starts: "## Work Item #7 — Add a thing ⏎ Build it."');
    expect(message).toContain('(routes: ');
  });

  it('a route with toolsInclude only takes requests offering those tools', async () => {
    const server = await start({
      routes: [
        { name: 'with-edit', match: { toolsInclude: ['Edit'] }, steps: [{ text: 'edit route' }] },
        { name: 'fallback', steps: [{ text: 'fallback route' }] },
      ],
    });
    const answer = await post(server, buildBody());
    expect(answer.message?.content[0]).toEqual({ type: 'text', text: 'fallback route' });
  });
});

describe('createModelServer — expectations, exhaustion, report', () => {
  const expecting: Scenario = oneRoute([
    { text: 'run it' },
    {
      name: 'after-bash',
      text: 'checked',
      expect: {
        lastToolResultIncludes: 'hello-from-bash',
        lastToolResultIsError: false,
        systemIncludes: 'Claude agent',
        toolsInclude: ['Bash'],
        toolsExclude: ['WebFetch'],
        messagesInclude: { regex: 'do the \\w+' },
        model: 'claude-test-model',
      },
    },
  ]);

  it('records nothing when the expectations hold', async () => {
    const server = await start(expecting);
    await post(server, buildBody());
    await post(server, buildBody({ history: toolTurn('t1', 'out: hello-from-bash') }));
    expect(server.report()).toMatchObject({ ok: true, unmetExpectations: [] });
  });

  it('records unmet expectations and still answers by default', async () => {
    const server = await start(expecting);
    const answer = await post(server, buildBody({ history: toolTurn('t1', 'permission denied', true) }));
    expect(answer.status).toBe(200);
    expect(server.requests[0]?.unmet).toEqual([
      'last tool_result does not contain "hello-from-bash" (last tool_result: "permission denied")',
      'last tool_result is_error is true, expected false',
    ]);
    const report = server.report();
    expect(report.ok).toBe(false);
    expect(report.unmetExpectations).toEqual([
      { seq: 1, route: 'main', stepIndex: 1, stepName: 'after-bash', failures: server.requests[0]?.unmet },
    ]);
    expect(report.problems[0]).toMatch(
      /^request #1 \(route 'main' step 1 'after-bash'\): unmet expectation: last tool_result/,
    );
  });

  it('answers 400 for unmet expectations in reject mode', async () => {
    const server = await start(expecting, { onUnmetExpectation: 'reject' });
    const answer = await post(server, buildBody({ history: toolTurn('t1', 'nope') }));
    expect(answer.status).toBe(400);
    expect((answer.json as { error: { message: string } }).error.message).toContain(
      "unmet expectation for route 'main' step 1: last tool_result does not contain",
    );
  });

  it('checks parallel tool results, the last user message and excluded text', async () => {
    const server = await start(
      oneRoute([
        { text: 'calls two tools' },
        {
          text: 'ok',
          expect: {
            toolResultsInclude: ['alpha', 'beta'],
            lastUserIncludes: 'beta',
            messagesExclude: 'secret',
            firstUserIncludes: 'missing words',
          },
        },
      ]),
    );
    const history = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Bash', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'alpha out' }] },
          { type: 'tool_result', tool_use_id: 'b', content: 'beta out' },
        ],
      },
    ];
    await post(server, {
      ...buildBody({ history: [] }),
      messages: [{ role: 'user', content: 'my secret' }, ...history],
    });
    expect(server.requests[0]?.unmet).toEqual([
      'first user message does not contain "missing words" (first user message: "my secret")',
      'messages contain "secret", expected not to',
    ]);
  });

  it('refuses a request beyond the last step and reports the exhausted route and unused steps', async () => {
    const server = await start({
      routes: [
        { name: 'main', steps: [{ text: 'only step' }] },
        { name: 'never', match: { systemIncludes: 'never' }, steps: [{ name: 'lonely', text: 'x' }] },
      ],
    });
    const answer = await post(server, buildBody({ history: toolTurn('t1', 'ok') }));
    expect(answer.status).toBe(400);
    expect((answer.json as { error: { message: string } }).error.message).toBe(
      "[flotilla model-server] script exhausted: route 'main' has 1 step(s), this request is at step 1 " +
        '(assistant turns already in the request)',
    );
    await post(server, buildBody({ history: toolTurn('t1', 'ok') }));
    const report = server.report();
    expect(report.exhausted).toEqual([
      { seq: 1, route: 'main', stepIndex: 1, stepCount: 1 },
      { seq: 2, route: 'main', stepIndex: 1, stepCount: 1 },
    ]);
    expect(report.unusedSteps).toEqual([
      { route: 'main', stepIndex: 0 },
      { route: 'never', stepIndex: 0, stepName: 'lonely' },
    ]);
    expect(report.problems).toEqual([
      "route 'main' exhausted: a request asked for step 1 but the route has 1 step(s)",
      "route 'main' step 0 was never requested",
      "route 'never' step 0 'lonely' was never requested",
    ]);
  });
});

describe('createModelServer — errors and delays', () => {
  it('answers an error step with its status the given number of times, then the reply', async () => {
    const server = await start(
      oneRoute([{ error: { status: 529, times: 2, retryAfterMs: 1500 }, text: 'after the storm' }]),
    );
    const first = await post(server, buildBody());
    const second = await post(server, buildBody());
    const third = await post(server, buildBody());
    expect([first.status, second.status, third.status]).toEqual([529, 529, 200]);
    expect(first.json).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: '[flotilla model-server] scripted error 529' },
      request_id: 'req_scripted_1',
    });
    expect(first.headers.get('retry-after-ms')).toBe('1500');
    expect(first.headers.get('retry-after')).toBe('2');
    expect(third.message?.content).toEqual([{ type: 'text', text: 'after the storm' }]);
    expect(server.requests.map((request) => [request.status, request.attempt])).toEqual([
      [529, 1],
      [529, 2],
      [200, 3],
    ]);
  });

  it('answers an error step without times forever, with type, message and x-should-retry', async () => {
    const server = await start(
      oneRoute([{ error: { status: 500, type: 'api_error', message: 'boom', shouldRetry: false } }]),
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await post(server, buildBody());
      expect(answer.status).toBe(500);
      expect(answer.headers.get('x-should-retry')).toBe('false');
      expect(answer.json).toMatchObject({ error: { type: 'api_error', message: 'boom' } });
    }
  });

  it('uses the Anthropic error type for a 400', async () => {
    const server = await start(oneRoute([{ error: { status: 400, message: 'prompt is too long' } }]));
    expect((await post(server, buildBody())).json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long' },
    });
  });

  it('waits delayMs before answering and chunkDelayMs between events', async () => {
    const server = await start(
      oneRoute([
        { text: 'slow', delayMs: 150 },
        { text: 'chunky', chunkDelayMs: 20 },
      ]),
    );
    let started = Date.now();
    await post(server, buildBody());
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    started = Date.now();
    const chunky = await post(server, buildBody({ history: toolTurn('t', 'x') }));
    // 9 events → 8 gaps of 20 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(chunky.message?.content).toEqual([{ type: 'text', text: 'chunky' }]);
  });

  it('records a request the client abandons during a delay', async () => {
    const server = await start(oneRoute([{ text: 'too late', delayMs: 5_000 }]));
    const controller = new AbortController();
    const pending = fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify(buildBody()),
      signal: controller.signal,
    });
    await waitFor(() => server.requests.length === 1 && server.requests[0]?.body !== undefined);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(() => server.requests[0]?.durationMs !== undefined);
    expect(server.requests[0]).toMatchObject({ aborted: true, kind: 'step' });
    await server.close();
  });
});

describe('createModelServer — stored scenarios', () => {
  it('replays scenarios/flaky-api.json: each error once, then the reply of the same step', async () => {
    const server = await start(await loadScenarioFile(join(import.meta.dirname, 'scenarios/flaky-api.json')));
    const statuses: number[] = [];
    for (const body of [buildBody(), buildBody()]) statuses.push((await post(server, body)).status);
    const history = toolTurn('toolu_scripted_2_0', 'still-here');
    for (const body of [buildBody({ history }), buildBody({ history })])
      statuses.push((await post(server, body)).status);
    expect(statuses).toEqual([529, 200, 500, 200]);
    expect(server.requests.at(-1)?.stepName).toBe('server-error-then-answer');
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
  });
});

describe('createModelServer — other routes and lifecycle', () => {
  it('answers startup calls harmlessly and records unknown routes', async () => {
    const server = await start(oneRoute([{ text: 'x' }]));
    const count = await fetch(`${server.url}/v1/messages/count_tokens?beta=true`, {
      method: 'POST',
      body: JSON.stringify(buildBody()),
    });
    expect(await count.json()).toEqual({ input_tokens: expect.any(Number) });
    const models = await fetch(`${server.url}/v1/models`);
    expect(await models.json()).toMatchObject({
      data: [{ type: 'model', id: 'claude-scripted' }],
      has_more: false,
    });
    const model = await fetch(`${server.url}/v1/models/claude-opus-5-5`);
    expect(await model.json()).toMatchObject({ type: 'model', id: 'claude-opus-5-5' });
    expect((await fetch(`${server.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    const unknown = await fetch(`${server.url}/v1/files`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const invalid = await post(server, '{not json');
    expect(invalid.status).toBe(400);
    expect(server.requests.map((request) => request.kind)).toEqual([
      'count_tokens',
      'models',
      'models',
      'probe',
      'unknown',
      'invalid',
    ]);
    const report = server.report();
    expect(report.unknownRoutes).toEqual([{ seq: 5, method: 'POST', url: '/v1/files' }]);
    expect(report.problems).toContain('request #5: unknown route POST /v1/files');
    expect(report.problems).toContain('request #6: body of /v1/messages?beta=true is not a JSON object');
  });

  it('refuses and reports a proxy CONNECT (a client reaching outside 127.0.0.1 through it)', async () => {
    const server = await start(oneRoute([{ text: 'x' }]));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port: server.port,
        method: 'CONNECT',
        path: 'chatgpt.com:443',
      });
      request.on('connect', (response, socket) => {
        socket.destroy();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(502);
    expect(server.requests.map((request) => [request.method, request.url, request.kind])).toEqual([
      ['CONNECT', 'chatgpt.com:443', 'connect'],
    ]);
    const report = server.report();
    expect(report.outside).toEqual([{ seq: 1, target: 'chatgpt.com:443' }]);
    expect(report.problems).toEqual([
      "route 'main' step 0 was never requested",
      'request #1: CONNECT chatgpt.com:443 through the server as a proxy (traffic leaving 127.0.0.1)',
    ]);
  });

  it('listens on 127.0.0.1 and stops cleanly', async () => {
    const server = await createModelServer(oneRoute([{ text: 'x' }]));
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    await post(server, buildBody());
    await server.close();
    await server.close();
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('leaves no handle behind after close', async () => {
    const count = (kind: string) =>
      process.getActiveResourcesInfo().filter((resource) => resource === kind).length;
    const before = {
      servers: count('TCPServerWrap'),
      sockets: count('TCPSocketWrap'),
      timers: count('Timeout'),
    };
    const server = await createModelServer(oneRoute([{ text: 'x' }, { text: 'y', delayMs: 10_000 }]));
    expect(count('TCPServerWrap')).toBe(before.servers + 1);
    await post(server, buildBody());
    const pending = post(server, buildBody({ history: toolTurn('t', 'x') })).catch(() => undefined);
    await waitFor(() => server.requests[1]?.attempt === 1);
    await server.close();
    await pending;
    // libuv releases closed handles on a later loop turn.
    await waitFor(() => count('TCPSocketWrap') <= before.sockets && count('TCPServerWrap') <= before.servers);
    expect(count('Timeout')).toBeLessThanOrEqual(before.timers);
  });

  it('close() waits for an answer being streamed', async () => {
    const server = await createModelServer(oneRoute([{ text: 'streaming slowly', chunkDelayMs: 30 }]));
    const pending = post(server, buildBody());
    await waitFor(() => server.requests[0]?.status === 200);
    await server.close();
    // The answer was complete when close() resolved.
    expect(server.requests[0]?.durationMs).toBeDefined();
    expect((await pending).message?.content).toEqual([{ type: 'text', text: 'streaming slowly' }]);
    expect(server.requests[0]?.aborted).toBe(false);
  });

  it('close() cuts a pending delay', async () => {
    const server = await createModelServer(oneRoute([{ text: 'slow', delayMs: 10_000 }]));
    const pending = post(server, buildBody()).catch((error: unknown) => error);
    await waitFor(() => server.requests[0]?.attempt === 1);
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
    expect(server.requests[0]?.aborted).toBe(true);
  });

  it('rejects an invalid scenario with a ScenarioError naming the field', async () => {
    await expect(
      createModelServer({ routes: [{ name: 'main', steps: [{ name: 'empty' }] }] } as Scenario),
    ).rejects.toThrow(ScenarioError);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
