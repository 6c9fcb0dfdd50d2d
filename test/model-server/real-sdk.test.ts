import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createModelServer,
  loadScenarioFile,
  type ModelServer,
  type ModelServerOptions,
  type Scenario,
} from '../../src/model-server/index.ts';
import { cleanupSessions, makeTempDir, runSdkSession, type SdkSession } from './run-sdk-session.ts';

/**
 * These tests drive the real Claude Agent SDK and its bundled `claude` binary against the scripted model
 * server. Nothing leaves 127.0.0.1 (see buildModelServerEnv). Durations are printed for the record.
 */

const SCENARIO_DIR = join(import.meta.dirname, '../../src/model-server/scenarios');

let server: ModelServer | undefined;
async function start(scenario: Scenario, options?: ModelServerOptions): Promise<ModelServer> {
  server = await createModelServer(scenario, options);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(cleanupSessions);

function logDuration(name: string, session: SdkSession): void {
  console.log(`[real-sdk] ${name}: ${session.durationMs} ms`);
}

/** JSON Schema the CLI accepts: zod's `$schema` key makes it exit before sending any request. */
function toCliSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

describe('model server with the real SDK', () => {
  it('a text reply session returns the result text', async () => {
    const model = await start({
      routes: [{ name: 'main', steps: [{ text: 'Hello from the scripted model.' }] }],
    });
    const session = await runSdkSession({ serverUrl: model.url, prompt: 'Say hello.' });
    logDuration('text reply', session);

    expect(session.error).toBeUndefined();
    expect(session.result).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    expect(session.result?.subtype === 'success' && session.result.result).toBe(
      'Hello from the scripted model.',
    );
    expect(model.report()).toMatchObject({ ok: true, problems: [] });
    // With the quiet-traffic variables the CLI makes exactly one request: no count_tokens, models or HEAD.
    expect(model.requests.map((request) => [request.method, request.url, request.kind])).toEqual([
      ['POST', '/v1/messages?beta=true', 'step'],
    ]);
    const body = model.requests[0]?.body as { stream: boolean; messages: { role: string }[] };
    expect(body.stream).toBe(true);
    expect(body.messages[0]?.role).toBe('user');
  });

  it('a Write tool_use step creates the file and the next request carries its tool_result', async () => {
    const model = await start({
      routes: [
        {
          name: 'main',
          steps: [
            {
              name: 'write',
              content: [
                { type: 'text', text: 'Writing the file.' },
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: '{{cwd}}/notes/hello.txt', content: 'hi there\n' },
                },
              ],
            },
            {
              name: 'after-write',
              expect: {
                lastToolResultIncludes: 'File created successfully at',
                lastToolResultIsError: false,
              },
              text: 'Done writing.',
            },
          ],
        },
      ],
    });
    const session = await runSdkSession({ serverUrl: model.url, prompt: 'Write notes/hello.txt.' });
    logDuration('write tool', session);

    expect(session.result?.subtype === 'success' && session.result.result).toBe('Done writing.');
    expect(await readFile(join(session.cwd, 'notes/hello.txt'), 'utf8')).toBe('hi there\n');
    expect(model.report()).toMatchObject({ ok: true, problems: [] });
    const [first, second] = model.requestsFor('main');
    expect([first?.stepIndex, second?.stepIndex]).toEqual([0, 1]);
    // A text + tool_use reply comes back as ONE assistant message: the step index stays in line.
    const messages = (second!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.filter((message) => message.role === 'assistant')).toHaveLength(1);
    const toolResult = messages
      .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .find((block: { type?: string }) => block.type === 'tool_result');
    expect(toolResult).toMatchObject({ tool_use_id: 'toolu_scripted_1_1' });
    expect(JSON.stringify(toolResult)).toContain(
      `File created successfully at: ${join(session.cwd, 'notes/hello.txt')}`,
    );
  });

  it('a StructuredOutput step yields structured_output', async () => {
    const schema = {
      type: 'object',
      properties: {
        outcome: { type: 'string', enum: ['completed', 'blocked'] },
        summary: { type: 'string' },
      },
      required: ['outcome', 'summary'],
      additionalProperties: false,
    };
    const model = await start({
      routes: [
        {
          name: 'main',
          steps: [
            {
              expect: { toolsInclude: ['StructuredOutput'] },
              structuredOutput: { outcome: 'completed', summary: 'All done.' },
            },
          ],
        },
      ],
    });
    const session = await runSdkSession({
      serverUrl: model.url,
      prompt: 'Report your outcome.',
      options: { outputFormat: { type: 'json_schema', schema } },
    });
    logDuration('structured output', session);

    expect(session.error).toBeUndefined();
    expect(session.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      structured_output: { outcome: 'completed', summary: 'All done.' },
    });
    const body = model.requests[0]?.body as { tools: { name: string; input_schema: unknown }[] };
    expect(body.tools.find((tool) => tool.name === 'StructuredOutput')?.input_schema).toEqual(schema);
    expect(model.report()).toMatchObject({ ok: true, problems: [] });
  });

  it('an HTTP 500 step is retried by the CLI and replays the same step', async () => {
    const model = await start({
      routes: [
        {
          name: 'main',
          steps: [
            { error: { status: 500, times: 1, message: 'scripted outage' }, text: 'Answer after the retry.' },
          ],
        },
      ],
    });
    const session = await runSdkSession({ serverUrl: model.url, prompt: 'Say something.' });
    logDuration('500 then retry', session);

    expect(session.result?.subtype === 'success' && session.result.result).toBe('Answer after the retry.');
    expect(session.result?.is_error).toBe(false);
    expect(model.requests.map((request) => [request.status, request.stepIndex, request.attempt])).toEqual([
      [500, 0, 1],
      [200, 0, 2],
    ]);
    expect(model.requests[1]?.body).toEqual(model.requests[0]?.body);
    expect(model.report().ok).toBe(true);
  });

  it('an exhausted script ends the session with a clear API error', async () => {
    const model = await start({
      routes: [
        {
          name: 'main',
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'Bash', input: { command: 'echo hi', description: 'Echo' } },
              ],
            },
          ],
        },
      ],
    });
    const session = await runSdkSession({ serverUrl: model.url, prompt: 'Run echo.' });
    logDuration('exhausted', session);

    expect(session.result?.is_error).toBe(true);
    expect(String(session.error)).toContain("script exhausted: route 'main' has 1 step(s)");
    const report = model.report();
    expect(report.exhausted.length).toBeGreaterThanOrEqual(1);
    expect(report.problems).toEqual([
      "route 'main' exhausted: a request asked for step 1 but the route has 1 step(s)",
    ]);
  });

  it('serves a planner and two implementors running at once from one stored multi-role scenario', async () => {
    const scenario = await loadScenarioFile(join(SCENARIO_DIR, 'multi-role-run.json'));
    const model = await start(scenario, { onUnmetExpectation: 'reject' });
    const plannerSchema = z.object({
      role: z.literal('planner'),
      create: z.array(
        z.object({
          tempID: z.string(),
          title: z.string(),
          body: z.string(),
          labels: z.array(z.string()),
          blockedBy: z.array(z.string()),
        }),
      ),
      close: z.array(z.string()),
      update: z.array(
        z.object({
          workItemID: z.string(),
          body: z.string().nullable(),
          labels: z.array(z.string()).nullable(),
        }),
      ),
    });
    const implementorSchema = z.object({
      role: z.literal('implementor'),
      outcome: z.enum(['completed', 'blocked', 'validation-failure']),
      summary: z.string(),
    });
    const implementorPrompt = (id: number, title: string): string =>
      `## Work Item #${id} — ${title}\n\nCreate the file.\n\n### Status\nready`;

    const [planner, first, second] = await Promise.all([
      runSdkSession({
        serverUrl: model.url,
        prompt:
          '## Changed Specs\n\n### specs/greeting.md (added)\nGreet people.\n\n## Existing Work Items\n',
        options: { outputFormat: { type: 'json_schema', schema: toCliSchema(plannerSchema) } },
      }),
      runSdkSession({
        serverUrl: model.url,
        prompt: implementorPrompt(1, 'Greeting file'),
        options: { outputFormat: { type: 'json_schema', schema: toCliSchema(implementorSchema) } },
      }),
      runSdkSession({
        serverUrl: model.url,
        prompt: implementorPrompt(2, 'Farewell file'),
        options: { outputFormat: { type: 'json_schema', schema: toCliSchema(implementorSchema) } },
      }),
    ]);
    for (const [name, session] of Object.entries({ planner, first, second }))
      logDuration(`concurrent ${name}`, session);

    expect(model.report().problems).toEqual([
      "route 'subagent' step 0 was never requested",
      "route 'reviewer' step 0 'verdict' was never requested",
    ]);
    expect(
      plannerSchema.parse(planner.result?.subtype === 'success' && planner.result.structured_output).create,
    ).toHaveLength(2);
    expect(first.result).toMatchObject({
      structured_output: { outcome: 'completed', summary: 'Added greeting.txt.' },
    });
    expect(second.result).toMatchObject({
      structured_output: { outcome: 'completed', summary: 'Added farewell.txt.' },
    });
    expect(await readFile(join(first.cwd, 'greeting.txt'), 'utf8')).toBe('hello\n');
    expect(await readFile(join(second.cwd, 'farewell.txt'), 'utf8')).toBe('bye\n');
    expect(model.requestsFor('implementor-1').map((request) => request.stepIndex)).toEqual([0, 1, 2]);
    expect(model.requestsFor('implementor-2').map((request) => request.stepIndex)).toEqual([0, 1]);
    expect(model.requestsFor('planner').map((request) => request.stepIndex)).toEqual([0, 1]);

    // The reviewer of the same stored run, afterwards.
    const reviewer = await runSdkSession({
      serverUrl: model.url,
      prompt: `${implementorPrompt(1, 'Greeting file')}\n\n## Revision #7 — Greeting file\n\n### Changed Files\n\n#### greeting.txt (added)\n`,
      cwd: await makeTempDir('model-server-review-'),
      options: {
        outputFormat: {
          type: 'json_schema',
          schema: toCliSchema(
            z.object({
              role: z.literal('reviewer'),
              review: z.object({
                verdict: z.enum(['approve', 'needs-changes']),
                summary: z.string(),
                comments: z.array(
                  z.object({ path: z.string(), line: z.number().nullable(), body: z.string() }),
                ),
              }),
            }),
          ),
        },
      },
    });
    logDuration('reviewer', reviewer);
    expect(reviewer.result).toMatchObject({
      structured_output: { role: 'reviewer', review: { verdict: 'approve' } },
    });
    expect(model.report().problems).toEqual(["route 'subagent' step 0 was never requested"]);
  }, 60_000);

  it('routes a subagent started through the Agent tool to its own script', async () => {
    const model = await start({
      routes: [
        {
          name: 'subagent',
          match: { subagent: true },
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'Bash', input: { command: 'echo from-sub', description: 'Echo' } },
              ],
            },
            { expect: { lastToolResultIncludes: 'from-sub' }, text: 'Subagent finished.' },
          ],
        },
        {
          name: 'main',
          match: { subagent: false },
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'Agent',
                  input: {
                    description: 'Sub job',
                    prompt: 'Do the sub job.',
                    subagent_type: 'general-purpose',
                  },
                },
              ],
            },
            { text: 'Waiting for the subagent.' },
            { expect: { lastUserIncludes: 'Subagent finished.' }, text: 'Main finished.' },
          ],
        },
      ],
    });
    const session = await runSdkSession({ serverUrl: model.url, prompt: 'Delegate the job.' });
    logDuration('subagent', session);

    expect(model.report()).toMatchObject({ ok: true, problems: [] });
    expect(model.requestsFor('subagent').map((request) => request.stepIndex)).toEqual([0, 1]);
    expect(session.result?.subtype === 'success' && session.result.result).toBe('Main finished.');
  });
});
