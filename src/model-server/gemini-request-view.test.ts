import { describe, expect, it } from 'vitest';
import { buildGeminiResponse, buildGeminiSseEvents } from './build-gemini-response.ts';
import { buildGeminiRequestView } from './gemini-request-view.ts';

const PATH = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';

const BODY = {
  systemInstruction: { parts: [{ text: 'You are Gemini CLI.' }] },
  tools: [{ functionDeclarations: [{ name: 'read_file' }, { name: 'run_shell_command' }] }],
  contents: [
    {
      role: 'user',
      parts: [
        { text: '<session_context>\n- **Workspace Directories:**\n  - /work/tree\n</session_context>' },
        { text: 'fix it' },
      ],
    },
    {
      role: 'model',
      parts: [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'x' } } }],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'Exit Code: 2' } } },
      ],
    },
  ],
};

describe('buildGeminiRequestView', () => {
  it('reads model, prompt, workspace, turns and tool results from a gemini-cli request', () => {
    const view = buildGeminiRequestView(BODY, PATH);
    expect(view).toMatchObject({
      api: 'generate-content',
      model: 'gemini-2.5-flash',
      stream: true,
      system: 'You are Gemini CLI.',
      firstUser: 'fix it',
      cwd: '/work/tree',
      assistantTurns: 1,
      toolNames: ['read_file', 'run_shell_command'],
      isSide: false,
      lastToolResult: { toolUseId: 'c1', text: 'Exit Code: 2', isError: true },
    });
    expect(view.lastUser).toBe('Exit Code: 2');
  });

  it('treats a request without tools as a side request', () => {
    expect(buildGeminiRequestView({ contents: [] }, PATH).isSide).toBe(true);
  });
});

describe('buildGeminiSseEvents', () => {
  it('streams text in chunks and calls whole, usage only on the last chunk', () => {
    const response = buildGeminiResponse(
      {
        content: [
          { type: 'text', text: 'hello there' },
          { type: 'tool_use', name: 'read_file', input: { a: 1 } },
        ],
      },
      'gemini-2.5-flash',
      7,
    );
    const events = buildGeminiSseEvents(response);
    const parts = events.map((event) => JSON.stringify(event.data.candidates));
    expect(parts.join('')).toContain(
      '"functionCall":{"id":"call_scripted_7_1","name":"read_file","args":{"a":1}}',
    );
    expect(events.length).toBe(4);
    expect(events.filter((event) => event.data.usageMetadata !== undefined).length).toBe(1);
    expect(events.at(-1)?.data.usageMetadata).toEqual(response.usageMetadata);
  });
});
