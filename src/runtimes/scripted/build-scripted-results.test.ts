import { describe, expect, it } from 'vitest';
import { parsePatchFiles } from '../../shared/parse-patch-files.ts';
import {
  buildAddFilePatch,
  buildImplementorResult,
  buildPlannerResult,
  buildReviewerResult,
} from './build-scripted-results.ts';
import {
  buildFailureRun,
  buildHangingRun,
  buildProvisioningFailureRun,
  buildResultRun,
} from './build-scripted-runs.ts';

describe('scripted result builders', () => {
  it('buildPlannerResult defaults every list to empty and keeps given fields', () => {
    expect(buildPlannerResult()).toEqual({ role: 'planner', create: [], close: [], update: [] });
    expect(buildPlannerResult({ close: ['4'] })).toEqual({
      role: 'planner',
      create: [],
      close: ['4'],
      update: [],
    });
  });

  it('buildImplementorResult attaches a patch only to completed results', () => {
    const completed = buildImplementorResult();
    expect(completed).toMatchObject({
      role: 'implementor',
      outcome: 'completed',
      summary: 'Scripted implementor: completed',
    });
    expect(completed.patch).toContain('+++ b/src/scripted-change.ts');
    expect(buildImplementorResult('completed', { patch: 'P', summary: 'S' })).toMatchObject({
      patch: 'P',
      summary: 'S',
    });
    expect(buildImplementorResult('blocked', { patch: 'P' }).patch).toBeNull();
    expect(buildImplementorResult('validation-failure').patch).toBeNull();
  });

  it('buildReviewerResult builds a review', () => {
    expect(buildReviewerResult()).toEqual({
      role: 'reviewer',
      review: { verdict: 'approve', summary: 'Scripted review: approve', comments: [] },
    });
    const comments = [{ path: 'a.ts', line: 3, body: 'rename' }];
    expect(buildReviewerResult('needs-changes', { summary: 'fix', comments }).review).toEqual({
      verdict: 'needs-changes',
      summary: 'fix',
      comments,
    });
  });

  it('buildAddFilePatch produces a diff that parses as one added file', () => {
    expect(parsePatchFiles(buildAddFilePatch('src/x.ts', 'a\nb\n'))).toEqual([
      { path: 'src/x.ts', status: 'added', patch: '@@ -0,0 +1,2 @@\n+a\n+b' },
    ]);
    expect(parsePatchFiles(buildAddFilePatch('one.txt', 'only'))).toEqual([
      { path: 'one.txt', status: 'added', patch: '@@ -0,0 +1 @@\n+only\n\\ No newline at end of file' },
    ]);
  });
});

describe('scripted run builders', () => {
  it('build the four endings with their extras', () => {
    const result = buildPlannerResult();
    expect(buildResultRun(result, { output: ['x'], delayMs: 5 })).toEqual({
      output: ['x'],
      delayMs: 5,
      end: { kind: 'result', result },
    });
    expect(buildFailureRun('timeout', 'slow')).toEqual({
      end: { kind: 'fail', reason: 'timeout', message: 'slow' },
    });
    expect(buildHangingRun({ startDelayMs: 1 })).toEqual({ startDelayMs: 1, end: { kind: 'hang' } });
    expect(buildProvisioningFailureRun('no disk', { startDelayMs: 2 })).toEqual({
      startDelayMs: 2,
      end: { kind: 'provisioningFailure', message: 'no disk' },
    });
  });
});
