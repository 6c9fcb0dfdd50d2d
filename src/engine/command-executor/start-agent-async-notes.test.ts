import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import type { AgentNote, AgentResult, EngineEvent } from '../../domain/index.ts';
import { createRecordingLogger } from '../../logging/logger.ts';
import type { AgentRunRequest, RuntimeAdapter } from '../runtime-contract/runtime-contract.ts';
import { createRunRegistry } from './run-registry.ts';
import { startAgentAsync } from './start-agent-async.ts';

const RESULTS: Record<string, AgentResult> = {
  implementor: { role: 'implementor', outcome: 'completed', summary: 'done', patch: 'diff' },
  reviewer: { role: 'reviewer', review: { verdict: 'approve', summary: 'ok', comments: [] } },
};

/** An adapter whose run records `notes` (as a runtime hands them over) and then completes. */
function notingAdapter(notes: AgentNote[]): RuntimeAdapter {
  return {
    runtime: 'claude',
    async startAgent(params) {
      return {
        logFilePath: null,
        output: { async *[Symbol.asyncIterator]() {} },
        result: Promise.resolve(RESULTS[params.role] as AgentResult),
        onNote(listener) {
          for (const note of notes) listener(note);
          return () => {};
        },
      };
    },
    cancelAgent() {},
  };
}

async function runWith(request: AgentRunRequest, notes: AgentNote[]) {
  const events: EngineEvent[] = [];
  const logger = createRecordingLogger();
  await startAgentAsync(request, {
    adapter: notingAdapter(notes),
    assembleContext: async (params) => ({ ...params, prompt: 'p' }),
    registry: createRunRegistry(),
    emit: (event) => events.push(event),
    clock: createManualClock(),
    logger,
    stallTimeoutMs: 0,
    onFinished: () => {},
    redact: (text) => text.replaceAll('s3cret-value', '[REDACTED:TOKEN]'),
  });
  return { noted: events.filter((event) => event.type === 'agentNoted'), events, logger };
}

const implementor: AgentRunRequest = {
  role: 'implementor',
  sessionID: 's1',
  workItemID: '7',
  branchName: 'flotilla/7',
};

describe('startAgentAsync: agent notes', () => {
  it('emits each valid note as agentNoted (redacted, trimmed), before the run ends; refuses invalid ones', async () => {
    const { noted, events, logger } = await runWith(implementor, [
      { kind: 'memory', topic: ' build ', text: 'Use make; token s3cret-value' },
      { kind: 'summary', text: 'x'.repeat(201) },
      { kind: 'decision', decision: 'ESM', why: 'the repo is ESM' },
    ]);
    expect(noted).toEqual([
      {
        type: 'agentNoted',
        sessionID: 's1',
        role: 'implementor',
        workItemID: '7',
        runtime: 'claude',
        note: { kind: 'memory', topic: 'build', text: 'Use make; token [REDACTED:TOKEN]' },
        at: expect.any(Number),
      },
      expect.objectContaining({ note: { kind: 'decision', decision: 'ESM', why: 'the repo is ESM' } }),
    ]);
    expect(events.at(-1)?.type).toBe('implementorCompleted');
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        message: 'agent note refused',
        fields: expect.objectContaining({ error: 'update_summary: text: at most 200 characters' }),
      }),
    );
  });

  it("refuses a reviewer's note that carries a patch; keeps its other notes", async () => {
    const { noted } = await runWith({ role: 'reviewer', sessionID: 's2', workItemID: '7', revisionID: '3' }, [
      { kind: 'memory', topic: 'fix', text: 'Apply this:\ndiff --git a/x b/x\n+y' },
      { kind: 'question', text: 'Is x meant to be public?' },
    ]);
    expect(noted.map((event) => (event.type === 'agentNoted' ? event.note.kind : ''))).toEqual(['question']);
  });
});
