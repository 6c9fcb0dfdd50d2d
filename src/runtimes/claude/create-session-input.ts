import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';

/**
 * A session's input in the SDK's streaming-input mode: the round's prompt first, then any message pushed
 * while the session runs, until `end()`. The CLI shows a message pushed during a turn to the model with its
 * next request ("The user sent a new message while you were working: …"), without ending the turn
 * (docs/claude-sdk-facts.md §Streaming input); that is how another agent's question reaches a working
 * Claude agent (issue #28 §3). The round ends its input on the result message, so the query ends there.
 */
export interface SessionInput {
  readonly messages: AsyncIterable<SDKUserMessage>;
  /** Queues a user message; false once the input has ended (the round is over). */
  push(text: string): boolean;
  end(): void;
}

const userMessage = (text: string): SDKUserMessage => ({
  type: 'user',
  message: { role: 'user', content: text },
  parent_tool_use_id: null,
});

export function createSessionInput(first: string): SessionInput {
  const queue: SDKUserMessage[] = [userMessage(first)];
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  async function* messages(): AsyncGenerator<SDKUserMessage> {
    while (true) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return {
    messages: messages(),
    push(text) {
      if (ended) return false;
      queue.push(userMessage(text));
      notify();
      return true;
    },
    end() {
      ended = true;
      notify();
    },
  };
}
