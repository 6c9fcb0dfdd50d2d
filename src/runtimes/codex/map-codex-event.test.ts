import { describe, expect, it } from 'vitest';
import { formatSessionMessage } from '../../session-log/format-session-message.ts';
import { mapCodexEvent } from './map-codex-event.ts';

const transcript = (messages: ReturnType<typeof mapCodexEvent>['logMessages']) =>
  messages.map((message) => formatSessionMessage(message, 0)).join('\n');

describe('mapCodexEvent', () => {
  it('agent messages are live text and ASSISTANT entries', () => {
    const mapped = mapCodexEvent({
      type: 'item.completed',
      item: { id: 'i1', type: 'agent_message', text: 'Hi.' },
    });
    expect(mapped.texts).toEqual(['Hi.']);
    expect(transcript(mapped.logMessages)).toBe('[00:00:00] ASSISTANT\n  Hi.');
  });

  it('a command is a tool call when it starts and a tool result with its exit code when it ends', () => {
    const startedEvent = mapCodexEvent({
      type: 'item.started',
      item: {
        id: 'c1',
        type: 'command_execution',
        command: 'npm test',
        aggregated_output: '',
        status: 'in_progress',
      },
    });
    expect(startedEvent.activity).toBe(true);
    expect(transcript(startedEvent.logMessages)).toBe(
      '[00:00:00] ASSISTANT [tool_use] exec_command\n  command: npm test',
    );
    const done = mapCodexEvent({
      type: 'item.completed',
      item: {
        id: 'c1',
        type: 'command_execution',
        command: 'npm test',
        aggregated_output: 'boom\n',
        exit_code: 1,
        status: 'failed',
      },
    });
    expect(done.texts).toEqual([]);
    expect(transcript(done.logMessages)).toBe('[00:00:00] USER [tool_result] error\n  exit code 1\n  boom');
  });

  it('an error item is a notice, not a failure; other events map to nothing', () => {
    expect(
      mapCodexEvent({
        type: 'item.completed',
        item: { id: 'e', type: 'error', message: 'Model metadata not found' },
      }),
    ).toEqual({
      texts: [],
      logMessages: [],
      activity: false,
      notice: 'codex notice: Model metadata not found',
    });
    expect(mapCodexEvent({ type: 'turn.started' })).toEqual({ texts: [], logMessages: [], activity: false });
  });

  it('a file change lists its paths', () => {
    const mapped = mapCodexEvent({
      type: 'item.completed',
      item: { id: 'f', type: 'file_change', status: 'completed', changes: [{ path: 'a.txt', kind: 'add' }] },
    });
    expect(transcript(mapped.logMessages)).toBe(
      '[00:00:00] ASSISTANT [tool_use] apply_patch\n  changes: add a.txt\n[00:00:00] USER [tool_result] ok\n  completed',
    );
  });
});
