import type { StoredTranscriptChunk } from '../../storage/index.ts';

/**
 * A remote run's transcript from the chunks its worker streamed (cluster mode), in the order they were
 * stored. A run requeued after its worker died was executed again from the start by another executor, which
 * wrote a transcript of its own: then each execution's text comes under a line naming it, the last one the
 * execution that went on (what a killed one streamed stays: its agent did that work).
 */
export function buildRemoteTranscript(chunks: readonly StoredTranscriptChunk[]): string {
  const executions = new Map<string, string[]>();
  for (const chunk of chunks) {
    const texts = executions.get(chunk.executor) ?? [];
    texts.push(chunk.text);
    executions.set(chunk.executor, texts);
  }
  if (executions.size <= 1) return [...executions.values()].flat().join('');
  return [...executions]
    .map(([executor, texts], index) => {
      const text = texts.join('');
      const heading = `--- execution ${index + 1} of ${executions.size}: worker slot ${executor}${index < executions.size - 1 ? ' (requeued: its worker stopped)' : ''} ---\n`;
      return heading + text + (text.endsWith('\n') ? '' : '\n');
    })
    .join('\n');
}
