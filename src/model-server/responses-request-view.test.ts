import { describe, expect, it } from 'vitest';
import { buildResponsesRequestView } from './responses-request-view.ts';

/** A request body shaped like codex 0.163's (developer prompt, environment context, then the prompt). */
function codexBody(history: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'scripted',
    stream: true,
    store: false,
    tools: [
      { type: 'function', name: 'exec_command', parameters: { type: 'object' } },
      { type: 'namespace', name: 'multi_agent_v1', tools: [] },
      { type: 'web_search', external_web_access: false },
    ],
    input: [
      {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: 'You are a coding agent running in the Codex CLI.' }],
      },
      {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '<environment_context>\n  <cwd>/tmp/work tree</cwd>\n  <shell>bash</shell>\n</environment_context>',
          },
        ],
      },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '## Work Item #2 — Add notes\n' }],
      },
      ...history,
    ],
    ...extra,
  };
}

function call(id: string, cmd: string): Record<string, unknown> {
  return {
    type: 'function_call',
    id: `fc_${id}`,
    call_id: id,
    name: 'exec_command',
    arguments: JSON.stringify({ cmd }),
  };
}

function output(id: string, text: string, exitCode = 0): Record<string, unknown> {
  return {
    type: 'function_call_output',
    call_id: id,
    output: `Chunk ID: 1\nWall time: 0.01 seconds\nProcess exited with code ${exitCode}\nOutput:\n${text}\n`,
  };
}

function assistant(text: string): Record<string, unknown> {
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

describe('buildResponsesRequestView', () => {
  it('reads the prompt, system text, tools, cwd and session of a first request', () => {
    const view = buildResponsesRequestView(codexBody([], { instructions: 'Base instructions.' }), {
      'session-id': 'thread-1',
    });
    expect(view).toMatchObject({
      api: 'responses',
      model: 'scripted',
      stream: true,
      system: 'Base instructions.\nYou are a coding agent running in the Codex CLI.',
      firstUser: '## Work Item #2 — Add notes\n',
      lastUser: expect.stringContaining('## Work Item #2'),
      toolNames: ['exec_command', 'multi_agent_v1', 'web_search'],
      assistantTurns: 0,
      isSide: false,
      sessionId: 'thread-1',
      cwd: '/tmp/work tree',
      outputSchema: undefined,
      latestToolResults: [],
      lastToolResult: undefined,
    });
  });

  it('puts developer_instructions before the text codex writes itself', () => {
    const body = codexBody();
    const input = body.input as Record<string, unknown>[];
    input.splice(1, 0, {
      type: 'message',
      role: 'developer',
      content: [
        { type: 'input_text', text: '# Planner\nYou are the planner.' },
        { type: 'input_text', text: '<permissions instructions>\nFilesystem sandboxing …' },
      ],
    });
    expect(buildResponsesRequestView(body).system.split('\n')).toEqual([
      '# Planner',
      'You are the planner.',
      'You are a coding agent running in the Codex CLI.',
      '<permissions instructions>',
      'Filesystem sandboxing …',
    ]);
  });

  it('counts a reply with text and parallel calls as one turn, and their outputs as its results', () => {
    const view = buildResponsesRequestView(
      codexBody([
        assistant('Running two things.'),
        call('a', 'echo one'),
        call('b', 'false'),
        output('a', 'one'),
        output('b', '', 1),
      ]),
    );
    expect(view.assistantTurns).toBe(1);
    expect(view.latestToolResults.map((result) => [result.toolUseId, result.isError])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(view.lastToolResult?.toolUseId).toBe('b');
    expect(view.lastUser).toContain('Output:\none');
    expect(view.lastUser).toContain('Process exited with code 1');
    expect(view.messagesText).toContain('exec_command {"cmd":"echo one"}');
    expect(view.messagesText).not.toContain('You are a coding agent');
  });

  it('counts each model reply once, also when outputs interleave with a later reply', () => {
    const history = [
      call('a', 'echo one'),
      output('a', 'one'),
      assistant('Done with a.'),
      call('b', 'ls'),
      output('b', 'x'),
    ];
    const view = buildResponsesRequestView(codexBody(history));
    expect(view.assistantTurns).toBe(2);
    expect(view.latestToolResults.map((result) => result.toolUseId)).toEqual(['b']);
  });

  it('a new user message after a final answer starts the next step (a resumed thread)', () => {
    const view = buildResponsesRequestView(
      codexBody([
        assistant('First answer.'),
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Here are the answers.' }] },
      ]),
    );
    expect(view.assistantTurns).toBe(1);
    expect(view.firstUser).toBe('## Work Item #2 — Add notes\n');
    expect(view.lastUser).toBe('Here are the answers.');
    expect(view.latestToolResults).toEqual([]);
  });

  it('takes the structured output schema from text.format', () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const view = buildResponsesRequestView(
      codexBody([], {
        text: { format: { type: 'json_schema', name: 'codex_output_schema', strict: true, schema } },
      }),
    );
    expect(view.outputSchema).toEqual(schema);
  });

  it('takes a plain string input as the user message', () => {
    const view = buildResponsesRequestView({ input: 'Just say hi.' });
    expect(view).toMatchObject({ firstUser: 'Just say hi.', lastUser: 'Just say hi.', assistantTurns: 0 });
  });

  it('tolerates odd bodies', () => {
    const view = buildResponsesRequestView({ input: 42, tools: {} });
    expect(view).toMatchObject({
      firstUser: '',
      system: '',
      assistantTurns: 0,
      toolNames: [],
      model: undefined,
    });
  });
});
