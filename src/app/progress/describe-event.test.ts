import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildRevision,
  buildRevisionFeedback,
  buildTestState,
} from '../../../test/support/shared/builders/index.ts';
import type { EngineEvent } from '../../domain/index.ts';
import { describeEvent } from './describe-event.ts';

describe('describeEvent', () => {
  it('reports a finished run with its duration and cost', () => {
    const run = buildImplementorRun({ sessionID: 's1', workItemID: '4', requestedAt: 1_000 });
    const state = buildTestState({ agentRuns: [run] });
    const line = describeEvent(
      {
        type: 'implementorCompleted',
        sessionID: 's1',
        workItemID: '4',
        branchName: 'flotilla/4',
        result: { role: 'implementor', outcome: 'completed', summary: 's', patch: 'p' },
        logFilePath: null,
        usage: { costUSD: 0.0123, inputTokens: 1, outputTokens: 1, turns: 1 },
        at: 5_200,
      },
      state,
    );
    expect(line).toBe('implementor finished #4: completed (in 4.2s, $0.0123)');
  });

  it('says whose feedback on a revision came in, and that it was answered', () => {
    const feedback = [
      buildRevisionFeedback({ author: 'mona' }),
      buildRevisionFeedback({
        id: 'line-2',
        kind: 'line-comment',
        state: null,
        author: 'mona',
        path: 'src/a.ts',
        line: 3,
      }),
    ];
    expect(
      describeEvent({ type: 'revisionFeedbackReceived', workItemID: '1', revisionID: '2', feedback, at: 1 }),
    ).toBe('revision r2 of #1: changes requested review, comment on src/a.ts:3 by mona');
    expect(
      describeEvent({
        type: 'revisionFeedbackAnswered',
        workItemID: '1',
        feedbackIDs: ['review-1', 'line-2'],
        at: 2,
      }),
    ).toBe('#1: answered 2 comments on its revision');
  });

  it('marks the made-up cost of a scripted run', () => {
    const run = buildImplementorRun({
      sessionID: 's1',
      workItemID: '4',
      requestedAt: 1_000,
      runtime: 'scripted',
    });
    const line = describeEvent(
      {
        type: 'implementorFailed',
        sessionID: 's1',
        workItemID: '4',
        branchName: 'flotilla/4',
        logFilePath: null,
        usage: { costUSD: 0.0024, inputTokens: 1, outputTokens: 1, turns: 1 },
        reason: 'error',
        error: 'boom',
        at: 2_000,
      },
      buildTestState({ agentRuns: [run] }),
    );
    expect(line).toContain('(in 1.0s, $0.0024 (scripted))');
  });

  it('keeps a multi-line failure to one line and says where the rest is', () => {
    const failed = (error: string) =>
      describeEvent({
        type: 'implementorFailed',
        sessionID: '0123456789abcdef',
        workItemID: '4',
        branchName: 'flotilla/4',
        logFilePath: null,
        usage: null,
        reason: 'validation',
        error,
        at: 2_000,
      });
    const tail = Array.from({ length: 200 }, (_, index) => `    at line ${index}`).join('\n');
    expect(failed(`validation still failing after 3 rounds: npm test\n${tail}\n`)).toBe(
      'implementor failed (validation): validation still failing after 3 rounds: npm test … (200 more lines: flotilla logs 01234567)',
    );
    expect(failed('boom\n')).toBe('implementor failed (validation): boom');
    expect(failed('a\nb')).toBe('implementor failed (validation): a … (1 more line: flotilla logs 01234567)');
  });

  it('reports checks results, retries and refusals, and stays quiet about duplicates and pending checks', () => {
    const revision = buildRevision({
      id: '7',
      pipeline: { status: 'failure', url: '/log', reason: 'npm test exited 1' },
    });
    const changed = (oldStatus: 'pending' | null, newStatus: 'failure' | 'pending') =>
      describeEvent({
        type: 'revisionChanged',
        revisionID: '7',
        workItemID: '4',
        revision,
        oldPipelineStatus: oldStatus,
        newPipelineStatus: newStatus,
      });
    expect(changed('pending', 'failure')).toBe('checks for revision r7 of #4: failed — npm test exited 1');
    expect(changed('pending', 'pending')).toBeNull();
    expect(
      describeEvent({
        type: 'dispatchQueued',
        command: { type: 'requestImplementorRun', workItemID: '4' },
        reason: 'backoff',
        notBefore: Date.UTC(2026, 0, 1, 12, 30, 5),
        priority: 0,
        at: 0,
      }),
    ).toBe('retry of implementor for #4 at 12:30:05');
    expect(
      describeEvent({
        type: 'dispatchQueued',
        command: { type: 'requestImplementorRun', workItemID: '4', mode: 'refine' },
        reason: 'backoff',
        notBefore: Date.UTC(2026, 0, 1, 12, 30, 5),
        priority: 0,
        at: 0,
      }),
    ).toBe("refine for #4 starts at 12:30:05 (the last failure's backoff)");
    const command = { type: 'requestPlannerRun' as const, specPaths: ['a.md'], specSHAs: {} };
    expect(
      describeEvent({
        type: 'commandRejected',
        command,
        reason: 'planner already running',
        kind: 'duplicate',
        at: 0,
      }),
    ).toBeNull();
    expect(
      describeEvent({ type: 'commandRejected', command, reason: 'read-only', kind: 'policy', at: 0 }),
    ).toBe('command requestPlannerRun refused (policy): read-only');
  });

  it('says what a provider limit parked, what waits for it, and an account failover', () => {
    const until = Date.UTC(2026, 0, 1, 14, 5, 0);
    const endedAt = Date.UTC(2026, 0, 1, 12, 0, 0);
    const run = buildImplementorRun({
      sessionID: 'abcdef123456',
      workItemID: '4',
      status: 'failed',
      runtime: 'claude',
      requestedAt: endedAt - 2000,
      endedAt,
    });
    const state = {
      ...buildTestState({ agentRuns: [run] }),
      parkings: {
        claude: {
          key: 'claude',
          runtime: 'claude',
          account: null,
          reason: 'usage-limit' as const,
          until,
          since: endedAt,
          hits: 1,
          message: "You've hit your limit",
        },
      },
    };
    expect(
      describeEvent(
        {
          type: 'implementorFailed',
          sessionID: 'abcdef123456',
          workItemID: '4',
          branchName: 'flotilla/4',
          reason: 'usage-limit',
          error: "You've hit your limit",
          resetsAt: until,
          logFilePath: null,
          usage: null,
          at: endedAt,
        },
        state,
      ),
    ).toBe(
      "implementor failed (usage-limit) (in 2.0s): You've hit your limit — claude parked until 14:05:00 (usage limit)",
    );
    expect(
      describeEvent({
        type: 'dispatchQueued',
        command: { type: 'requestImplementorRun', workItemID: '4' },
        reason: 'parked',
        notBefore: until,
        priority: 0,
        at: 0,
      }),
    ).toBe("implementor for #4 waits for its runtime's limit to lift at 14:05:00");
    expect(
      describeEvent({
        type: 'accountSwitched',
        sessionID: 'abcdef123456',
        runtime: 'claude',
        from: 'work',
        to: 'spare',
        until,
        at: endedAt,
      }),
    ).toBe('claude account work exhausted until 14:05:00: session abcdef12 continues on account spare');
  });
});

describe('describeEvent: budgets', () => {
  it('says when dispatch pauses on the budget, when it resumes, and which item went over its cap', () => {
    const at = Date.UTC(2026, 10, 23, 15, 0, 0);
    expect(
      describeEvent({
        type: 'budgetPauseChanged',
        pause: { period: 'day', spentUSD: 20.4, capUSD: 20, resumesAt: Date.UTC(2026, 10, 24), since: at },
        at,
      }),
    ).toBe(
      "dispatch paused: day's budget $20.40 of $20.00 spent, resumes 2026-11-24 00:00 UTC (flotilla budget set daily <usd>)",
    );
    expect(describeEvent({ type: 'budgetPauseChanged', pause: null, at })).toBe(
      'dispatch resumed: within budget again',
    );
    expect(
      describeEvent({
        type: 'workItemOverBudget',
        workItemID: '3',
        scope: 'item',
        role: 'implementor',
        spentUSD: 4.6,
        capUSD: 5,
        estimateUSD: 0.8,
        at,
      }),
    ).toBe('work item #3 over budget: $4.60 of $5.00 spent; blocked');
  });

  it("describes an agent's notes on one line: its summary as progress, the others by kind", () => {
    const noted = (note: Extract<EngineEvent, { type: 'agentNoted' }>['note']) =>
      describeEvent({
        type: 'agentNoted',
        sessionID: 's1',
        role: 'implementor',
        workItemID: '7',
        runtime: 'claude',
        note,
        at: 0,
      });
    expect(noted({ kind: 'summary', text: 'Writing\nthe tests' })).toBe('implementor #7: Writing the tests');
    expect(noted({ kind: 'memory', topic: 'build', text: 'make' })).toBe(
      'implementor #7 stored a memory: build',
    );
    expect(noted({ kind: 'decision', decision: 'ESM', why: 'repo' })).toBe('implementor #7 decided: ESM');
    expect(noted({ kind: 'question', text: 'Trim?' })).toBe(
      'implementor #7 logged a question (flotilla questions): Trim?',
    );
  });
  it('describes conversations between agents: who asked whom, and how it ended', () => {
    const conversation = {
      id: 'c1',
      from: { sessionID: 'sa', role: 'implementor', workItemID: '1' },
      target: '2',
      to: { sessionID: 'sb', role: 'reviewer', workItemID: '2' },
      question: 'Which\nport?',
      status: 'open',
      answer: null,
      timeoutSeconds: 60,
      createdAt: 0,
      answeredAt: null,
    } as const;
    expect(describeEvent({ type: 'conversationCreated', conversation, at: 0 })).toBe(
      'implementor of #1 asked reviewer of #2 (c1): Which port?',
    );
    expect(
      describeEvent({
        type: 'conversationCreated',
        conversation: { ...conversation, to: null, target: 'planner', status: 'not-running', answer: 'none' },
        at: 0,
      }),
    ).toBe("implementor of #1 asked 'planner' (c1): Which port? — not-running: none");
    expect(
      describeEvent({
        type: 'conversationAnswered',
        conversationID: 'c1',
        status: 'timeout',
        answer: 'late',
        at: 0,
      }),
    ).toBe('conversation c1 ended (timeout): late');
  });
});
