import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

/**
 * The human-readable text of one SDK message: the assistant's text blocks. Tool calls, tool results,
 * system and result messages are not surfaced (docs/runtime-spec.md §Output Stream).
 */
export function extractOutputText(message: SDKMessage): string[] {
  if (message.type !== 'assistant') return [];
  const content: unknown = message.message?.content;
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content) {
    if (
      block &&
      typeof block === 'object' &&
      block.type === 'text' &&
      typeof block.text === 'string' &&
      block.text !== ''
    ) {
      texts.push(block.text);
    }
  }
  return texts;
}
