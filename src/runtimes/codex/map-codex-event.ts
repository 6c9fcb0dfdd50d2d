import type { ThreadEvent } from '@openai/codex-sdk';
import type { SessionLogMessage } from '../../session-log/session-log-message.ts';

/** What one codex event means for the run's live stream, transcript and stall detection. */
export interface MappedCodexEvent {
  /** Human-readable text for the live output. */
  texts: string[];
  /** Transcript entries, in the session log's message shape (assistant text, tool calls, tool results). */
  logMessages: SessionLogMessage[];
  /** Non-text work (a command started or finished, a file change): the run is not stalled. */
  activity: boolean;
  /** A notice worth a FLOTILLA line in the transcript (codex's `error` items are notices, not failures). */
  notice?: string;
}

const NOTHING: MappedCodexEvent = { texts: [], logMessages: [], activity: false };

function assistant(content: Record<string, unknown>[]): SessionLogMessage {
  return { type: 'assistant', message: { role: 'assistant', content } };
}

function toolResult(output: string, isError: boolean): SessionLogMessage {
  return {
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', content: output, is_error: isError }] },
  };
}

/**
 * Maps a codex `ThreadEvent` onto Flotilla's run: agent messages are the live text and ASSISTANT entries;
 * a command is a tool call when it starts (`exec_command` with its command line) and a tool result with its
 * output when it ends; a file change is an `apply_patch` call listing the paths. `error` *items* are notices
 * (codex emits one on every run with a custom provider); failures are the caller's business (`turn.failed`,
 * `error` events).
 */
export function mapCodexEvent(event: ThreadEvent): MappedCodexEvent {
  if (event.type === 'item.started') {
    if (event.item.type !== 'command_execution') return NOTHING;
    return {
      texts: [],
      logMessages: [
        assistant([{ type: 'tool_use', name: 'exec_command', input: { command: event.item.command } }]),
      ],
      activity: true,
    };
  }
  if (event.type !== 'item.completed') return NOTHING;
  return mapCompletedItem(event.item);
}

/** A finished item: a message, a command's result, a file change, a tool call, reasoning or a notice. */
function mapCompletedItem(item: Extract<ThreadEvent, { type: 'item.completed' }>['item']): MappedCodexEvent {
  switch (item.type) {
    case 'agent_message':
      return item.text === ''
        ? NOTHING
        : {
            texts: [item.text],
            logMessages: [assistant([{ type: 'text', text: item.text }])],
            activity: false,
          };
    case 'command_execution': {
      const failed = item.status === 'failed' || (item.exit_code !== undefined && item.exit_code !== 0);
      const exit = item.exit_code === undefined ? '' : `exit code ${item.exit_code}\n`;
      return {
        texts: [],
        logMessages: [toolResult(`${exit}${item.aggregated_output}`, failed)],
        activity: true,
      };
    }
    case 'file_change': {
      const paths = item.changes.map((change) => `${change.kind} ${change.path}`).join('\n');
      return {
        texts: [],
        logMessages: [
          assistant([{ type: 'tool_use', name: 'apply_patch', input: { changes: paths } }]),
          toolResult(item.status, item.status === 'failed'),
        ],
        activity: true,
      };
    }
    case 'mcp_tool_call':
      return {
        texts: [],
        logMessages: [
          assistant([{ type: 'tool_use', name: `${item.server}.${item.tool}`, input: item.arguments }]),
          toolResult(item.error?.message ?? item.status, item.status === 'failed'),
        ],
        activity: true,
      };
    case 'reasoning':
      return {
        texts: [],
        logMessages: [assistant([{ type: 'thinking', thinking: item.text }])],
        activity: true,
      };
    case 'error':
      return { ...NOTHING, notice: `codex notice: ${item.message}` };
    default:
      return NOTHING;
  }
}
