import { describe, expect, it } from 'vitest';
import { mapGeminiEvent } from './map-gemini-event.ts';

describe('mapGeminiEvent', () => {
  it('maps init, assistant text, tool calls and results', () => {
    expect(mapGeminiEvent('{"type":"init","session_id":"s1","model":"gemini-2.5-flash"}')).toEqual({
      kind: 'init',
      sessionId: 's1',
      model: 'gemini-2.5-flash',
    });
    expect(mapGeminiEvent('{"type":"message","role":"assistant","content":"hi","delta":true}')).toEqual({
      kind: 'text',
      text: 'hi',
    });
    expect(mapGeminiEvent('{"type":"message","role":"user","content":"do it"}')).toEqual({ kind: 'other' });
    expect(
      mapGeminiEvent(
        '{"type":"tool_use","tool_name":"read_file","tool_id":"t1","parameters":{"file_path":"a"}}',
      ),
    ).toEqual({ kind: 'tool-call', id: 't1', name: 'read_file', input: { file_path: 'a' } });
    expect(
      mapGeminiEvent(
        '{"type":"tool_result","tool_id":"t1","status":"error","error":{"message":"no such file"}}',
      ),
    ).toEqual({ kind: 'tool-result', id: 't1', ok: false, output: 'no such file' });
  });

  it('reads the final stats as usage, and odd numbers as zero', () => {
    const line = JSON.stringify({
      type: 'result',
      status: 'success',
      stats: { input_tokens: 30, output_tokens: 8, cached: -1, tool_calls: 'x' },
    });
    expect(mapGeminiEvent(line)).toEqual({
      kind: 'result',
      ok: true,
      usage: { inputTokens: 30, outputTokens: 8, cachedTokens: 0, toolCalls: 0 },
    });
  });

  it('treats lines that are not JSON objects as other', () => {
    expect(mapGeminiEvent('YOLO mode is enabled.')).toEqual({ kind: 'other' });
    expect(mapGeminiEvent('[1,2]')).toEqual({ kind: 'other' });
  });
});
