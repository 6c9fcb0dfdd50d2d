import { afterEach, describe, expect, it } from 'vitest';
import type { ResponseObject, ResponseOutputItem } from './build-response-object.ts';
import type { SseEvent } from './build-sse-events.ts';
import { createModelServer, type ModelServer, type ModelServerOptions } from './create-model-server.ts';
import { parseSse } from './parse-sse.ts';
import type { Scenario } from './scenario-types.ts';

/** The OpenAI Responses endpoint (`POST /v1/responses`, as the codex binary calls it). */

const SCHEMA = {
  type: 'object',
  properties: { outcome: { type: 'string', enum: ['completed', 'blocked'] }, summary: { type: 'string' } },
  required: ['outcome', 'summary'],
  additionalProperties: false,
};

interface BodyInput {
  prompt?: string;
  history?: unknown[];
  schema?: unknown;
  stream?: boolean;
}

function buildBody(input: BodyInput = {}): Record<string, unknown> {
  return {
    model: 'scripted',
    stream: input.stream ?? true,
    store: false,
    tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }],
    input: [
      {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: 'You are the implementor.' }],
      },
      {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '<environment_context>\n  <cwd>/work/tree</cwd>\n</environment_context>',
          },
        ],
      },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: input.prompt ?? 'do the thing' }],
      },
      ...(input.history ?? []),
    ],
    ...(input.schema === undefined
      ? {}
      : {
          text: {
            format: { type: 'json_schema', name: 'codex_output_schema', strict: true, schema: input.schema },
          },
        }),
  };
}

/** One earlier model turn: a call and its output. */
function callTurn(id: string, output: string): unknown[] {
  return [
    { type: 'function_call', id: `fc_${id}`, call_id: id, name: 'exec_command', arguments: '{"cmd":"echo"}' },
    { type: 'function_call_output', call_id: id, output: `Process exited with code 0\nOutput:\n${output}\n` },
  ];
}

interface Answer {
  status: number;
  headers: Headers;
  events: SseEvent[];
  response: ResponseObject | undefined;
  json: unknown;
}

async function post(
  server: ModelServer,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const reply = await fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await reply.text();
  const isSse = reply.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const events = isSse ? parseSse(text) : [];
  const json = isSse ? undefined : JSON.parse(text);
  const response = isSse ? assembleResponse(events) : reply.ok ? (json as ResponseObject) : undefined;
  return { status: reply.status, headers: reply.headers, events, response, json };
}

/**
 * Rebuilds the output the way a streaming client does — items from `output_item.added`, text and arguments
 * from the deltas — and checks it against `output_item.done` and `response.completed`.
 */
function assembleResponse(events: SseEvent[]): ResponseObject {
  const built: ResponseOutputItem[] = [];
  let completed: ResponseObject | undefined;
  for (const { event, data } of events) {
    const index = data.output_index as number;
    if (event === 'response.output_item.added')
      built[index] = structuredClone(data.item) as ResponseOutputItem;
    const item = built[index];
    if (event === 'response.content_part.added' && item?.type === 'message') {
      item.content.push({ type: 'output_text', text: '', annotations: [] });
    }
    if (event === 'response.output_text.delta' && item?.type === 'message') {
      const part = item.content[data.content_index as number];
      if (part !== undefined) part.text += String(data.delta);
    }
    if (event === 'response.function_call_arguments.delta' && item?.type === 'function_call') {
      item.arguments += String(data.delta);
    }
    if (event === 'response.output_item.done') {
      expect({ ...item, status: 'completed' }).toEqual(data.item);
    }
    if (event === 'response.completed') completed = data.response as ResponseObject;
  }
  if (completed === undefined) throw new Error('SSE stream has no response.completed');
  expect(completed.output).toEqual(built.map((item) => ({ ...item, status: 'completed' })));
  return completed;
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

describe('createModelServer — Responses API replies', () => {
  it('streams a text reply: created, in_progress, item and text events, completed with usage', async () => {
    const server = await start(
      oneRoute([
        {
          text: 'Hello from the script.',
          usage: { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 5 },
        },
      ]),
    );
    const answer = await post(server, buildBody());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/event-stream');
    expect(answer.events.map((event) => event.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(answer.events.map((event) => event.data.sequence_number)).toEqual(
      answer.events.map((_, index) => index),
    );
    expect(answer.events.every((event) => event.data.type === event.event)).toBe(true);
    expect(answer.response).toMatchObject({
      id: 'resp_scripted_1',
      status: 'completed',
      model: 'scripted',
      output: [
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello from the script.' }],
        },
      ],
      usage: {
        input_tokens: 7,
        input_tokens_details: { cached_tokens: 5 },
        output_tokens: 3,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 10,
      },
    });
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
  });

  it('answers with one JSON response when stream is false', async () => {
    const server = await start(oneRoute([{ text: 'plain' }]));
    const answer = await post(server, buildBody({ stream: false }));
    expect(answer.events).toEqual([]);
    expect(answer.response).toMatchObject({ object: 'response', output: [{ type: 'message' }] });
  });

  it('turns tool_use blocks into function calls with call ids and streamed arguments', async () => {
    const server = await start(
      oneRoute([
        {
          content: [
            { type: 'text', text: 'Two commands.' },
            { type: 'tool_use', name: 'exec_command', input: { cmd: 'echo one > one.txt' } },
            { type: 'tool_use', name: 'exec_command', input: { cmd: 'ls' }, id: 'call_mine' },
          ],
        },
      ]),
    );
    const answer = await post(server, buildBody());
    expect(answer.response?.output).toEqual([
      expect.objectContaining({ type: 'message' }),
      {
        id: 'fc_scripted_1_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_scripted_1_1',
        name: 'exec_command',
        arguments: '{"cmd":"echo one > one.txt"}',
      },
      expect.objectContaining({ type: 'function_call', call_id: 'call_mine', arguments: '{"cmd":"ls"}' }),
    ]);
    expect(
      answer.events.filter((event) => event.event === 'response.function_call_arguments.done'),
    ).toHaveLength(2);
  });

  it('picks the step from the model turns in input and fills {{cwd}} from the environment context', async () => {
    const server = await start(
      oneRoute([
        { content: [{ type: 'tool_use', name: 'exec_command', input: { cmd: 'echo hi' } }] },
        {
          expect: { lastToolResultIncludes: 'hi', lastToolResultIsError: false },
          text: 'Worked in {{cwd}}.',
        },
      ]),
    );
    const first = await post(server, buildBody());
    const second = await post(server, buildBody({ history: callTurn('c1', 'hi') }));
    expect(first.response?.output[0]?.type).toBe('function_call');
    expect(second.response?.output).toMatchObject([{ content: [{ text: 'Worked in /work/tree.' }] }]);
    expect(server.requests.map((request) => [request.kind, request.stepIndex])).toEqual([
      ['step', 0],
      ['step', 1],
    ]);
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
  });

  it('routes on the prompt after the harness context and on the developer text', async () => {
    const server = await start({
      routes: [
        { name: 'reviewer', match: { systemIncludes: 'You are the reviewer.' }, steps: [{ text: 'review' }] },
        { name: 'item-2', match: { firstUserIncludes: '## Work Item #2' }, steps: [{ text: 'implement' }] },
      ],
    });
    const answer = await post(server, buildBody({ prompt: '## Work Item #2 — Notes' }));
    expect(answer.response?.output).toMatchObject([{ content: [{ text: 'implement' }] }]);
    const refused = await post(server, buildBody({ prompt: 'something else' }));
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      error: {
        message: expect.stringContaining(
          '[flotilla model-server] no route matches this request — agent: implementor',
        ),
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });
});

describe('createModelServer — Responses API structured output', () => {
  it('sends structuredOutput as the final message JSON when it matches text.format', async () => {
    const server = await start(oneRoute([{ structuredOutput: { outcome: 'completed', summary: 'Done.' } }]));
    const answer = await post(server, buildBody({ schema: SCHEMA }));
    const message = answer.response?.output[0];
    expect(message?.type === 'message' && JSON.parse(message.content[0]?.text ?? '')).toEqual({
      outcome: 'completed',
      summary: 'Done.',
    });
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
  });

  it('reports a structuredOutput that does not match the schema, and refuses it in reject mode', async () => {
    const steps = [{ structuredOutput: { outcome: 'finished', summary: 3 } }];
    const recording = await start(oneRoute(steps));
    const answer = await post(recording, buildBody({ schema: SCHEMA }));
    expect(answer.status).toBe(200);
    const [problem, ...others] = recording.report().problems;
    expect(others).toEqual([]);
    expect(problem).toContain(
      "route 'main' step 0): unmet expectation: structuredOutput does not match the request's text.format schema at outcome:",
    );
    expect(problem).toContain('schema at summary: Invalid input: expected string, received number');

    const rejecting = await start(oneRoute(steps), { onUnmetExpectation: 'reject' });
    const refused = await post(rejecting, buildBody({ schema: SCHEMA }));
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      error: { message: expect.stringContaining("bad structured output for route 'main' step 0") },
    });
  });

  it('reports a final reply without structuredOutput when the request asks for one, and the reverse', async () => {
    const server = await start({
      routes: [
        { name: 'plain', match: { firstUserIncludes: 'plain' }, steps: [{ text: 'not JSON' }] },
        { name: 'extra', steps: [{ structuredOutput: { outcome: 'completed', summary: 'x' } }] },
      ],
    });
    await post(server, buildBody({ prompt: 'plain', schema: SCHEMA }));
    await post(server, buildBody({ prompt: 'no schema here' }));
    expect(server.report().problems).toEqual([
      expect.stringContaining('final reply has no structuredOutput'),
      expect.stringContaining('the request has no text.format json_schema'),
    ]);
  });
});

describe('createModelServer — Responses API errors', () => {
  it('answers an error step with an OpenAI error body, then the reply of the same step', async () => {
    const server = await start(
      oneRoute([{ error: { status: 500, times: 1, message: 'scripted outage' }, text: 'after' }]),
    );
    const first = await post(server, buildBody());
    const second = await post(server, buildBody());
    expect(first.status).toBe(500);
    expect(first.json).toEqual({
      error: { message: 'scripted outage', type: 'server_error', param: null, code: null },
    });
    expect(second.response?.output).toMatchObject([{ content: [{ text: 'after' }] }]);
  });

  it('refuses a request beyond the last step and a body that is not JSON', async () => {
    const server = await start(oneRoute([{ text: 'only step' }]));
    const exhausted = await post(server, buildBody({ history: callTurn('c1', 'x') }));
    expect(exhausted.status).toBe(400);
    expect(exhausted.json).toMatchObject({
      error: {
        message: expect.stringContaining("script exhausted: route 'main' has 1 step(s)"),
        type: 'invalid_request_error',
      },
    });
    const invalid = await post(server, 'not json');
    expect(invalid.status).toBe(400);
    expect(server.requests.map((request) => request.kind)).toEqual(['exhausted', 'invalid']);
  });
});
