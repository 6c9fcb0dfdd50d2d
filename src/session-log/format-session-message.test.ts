import { describe, expect, it } from 'vitest';
import { formatSessionMessage } from './format-session-message.ts';

const AT = Date.parse('2026-02-18T23:59:58.500Z');

describe('formatSessionMessage', () => {
  it('stamps entries with UTC HH:MM:SS', () => {
    expect(formatSessionMessage({ type: 'system', subtype: 'status' }, AT)).toBe('[23:59:58] SYSTEM status');
  });

  it('writes one ASSISTANT entry per content block, tool calls with their input', () => {
    const entry = formatSessionMessage(
      {
        type: 'assistant',
        message: {
          content: [
            { type: 'thinking', thinking: 'hmm' },
            { type: 'text', text: 'Reading files.' },
            { type: 'tool_use', name: 'Read', input: { file_path: '/secret/path' } },
            { type: 'tool_use', name: 'StructuredOutput', input: { role: 'planner' } },
          ],
        },
      },
      AT,
    );
    expect(entry).toBe(
      [
        '[23:59:58] ASSISTANT [thinking] (3 chars)',
        '[23:59:58] ASSISTANT\n  Reading files.',
        '[23:59:58] ASSISTANT [tool_use] Read',
        '  file_path: /secret/path',
        '[23:59:58] ASSISTANT [tool_use] StructuredOutput',
        '  role: planner',
      ].join('\n'),
    );
  });

  it("shows a Bash call's command and a Write's path; long content is cut to 20 lines with a marker", () => {
    const content = Array.from({ length: 45 }, (_, index) => `row ${index + 1}`).join('\n');
    const entry = formatSessionMessage(
      {
        type: 'assistant',
        message: {
          content: [
            { type: 'tool_use', name: 'Bash', input: { command: 'npm test -- --run', description: 'Test' } },
            {
              type: 'tool_use',
              name: 'Write',
              input: { file_path: '/wt/src/a.ts', content: `${content}\n` },
            },
            { type: 'tool_use', name: 'TodoWrite', input: { todos: [{ content: 'x', status: 'done' }] } },
          ],
        },
      },
      AT,
    );
    expect(entry?.split('\n')).toEqual([
      '[23:59:58] ASSISTANT [tool_use] Bash',
      '  command: npm test -- --run',
      '  description: Test',
      '[23:59:58] ASSISTANT [tool_use] Write',
      '  file_path: /wt/src/a.ts',
      '  content:',
      ...Array.from({ length: 20 }, (_, index) => `    row ${index + 1}`),
      '    (… 25 more lines)',
      '[23:59:58] ASSISTANT [tool_use] TodoWrite',
      '  todos: [{"content":"x","status":"done"}]',
    ]);
  });

  it('writes a tool result in full, indented under its status', () => {
    const output = Array.from({ length: 40 }, (_, index) => `test ${index + 1} passed`).join('\n');
    expect(
      formatSessionMessage(
        { type: 'user', message: { content: [{ type: 'tool_result', content: `${output}\n` }] } },
        AT,
      )?.split('\n'),
    ).toEqual([
      '[23:59:58] USER [tool_result] ok',
      ...Array.from({ length: 40 }, (_, index) => `  test ${index + 1} passed`),
    ]);
    expect(
      formatSessionMessage(
        { type: 'user', message: { content: [{ type: 'tool_result', content: '' }] } },
        AT,
      ),
    ).toBe('[23:59:58] USER [tool_result] ok (empty)');
  });

  it('shows plain user text indented', () => {
    expect(
      formatSessionMessage({ type: 'user', message: { content: 'Please answer\nwith the tool.' } }, AT),
    ).toBe('[23:59:58] USER\n  Please answer\n  with the tool.');
  });

  it('writes the result line with duration, cost, turns, tokens, and errors of an error result', () => {
    expect(
      formatSessionMessage(
        {
          type: 'result',
          subtype: 'error_max_structured_output_retries',
          is_error: true,
          duration_ms: 800,
          total_cost_usd: 0,
          num_turns: 6,
          usage: { input_tokens: 10, output_tokens: 2 },
          errors: ['Failed to provide valid structured output after 5 attempts'],
        },
        AT,
      ),
    ).toBe(
      [
        '[23:59:58] RESULT error (error_max_structured_output_retries)',
        '  Duration: 0.8s',
        '  Cost: $0.0000',
        '  Turns: 6',
        '  Tokens: 10 in / 2 out',
        '  Failed to provide valid structured output after 5 attempts',
      ].join('\n'),
    );
  });

  it('says error, with the terminal reason and the message, when an API error ends a "success"', () => {
    const entry = formatSessionMessage(
      {
        type: 'result',
        subtype: 'success',
        is_error: true,
        terminal_reason: 'api_error',
        result: 'API Error: 500 Internal server error',
        duration_ms: 1200,
      },
      AT,
    );
    expect(entry?.split('\n').slice(0, 1)).toEqual(['[23:59:58] RESULT error (api_error)']);
    expect(entry).toContain('  Message: API Error: 500 Internal server error');
    expect(entry).not.toContain('success');
  });

  it('says unknown for result figures the message lacks', () => {
    expect(formatSessionMessage({ type: 'result', subtype: 'success' }, AT)).toBe(
      '[23:59:58] RESULT success\n  Duration: unknown\n  Cost: unknown\n  Turns: unknown\n  Tokens: unknown in / unknown out',
    );
  });

  it('writes anything else as UNKNOWN with its raw JSON', () => {
    expect(formatSessionMessage({ type: 'rate_limit_event', retry_in: 3 }, AT)).toBe(
      '[23:59:58] UNKNOWN rate_limit_event\n  {"type":"rate_limit_event","retry_in":3}',
    );
  });

  it('skips partial stream events', () => {
    expect(formatSessionMessage({ type: 'stream_event', event: {} }, AT)).toBeNull();
  });

  it('copes with malformed messages', () => {
    expect(formatSessionMessage({ type: 'assistant', message: 'nope' }, AT)).toBe(
      '[23:59:58] ASSISTANT (no content)',
    );
    expect(formatSessionMessage({ type: 'system', subtype: 'init', tools: 'Read' }, AT)).toBe(
      '[23:59:58] SYSTEM init\n  Model: unknown\n  CWD: unknown\n  Tools: (none)',
    );
  });
});
