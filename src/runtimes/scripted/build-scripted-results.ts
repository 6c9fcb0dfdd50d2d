import type {
  AgentReviewComment,
  ImplementorOutcome,
  ImplementorResult,
  PlannerResult,
  ReviewerResult,
  ReviewVerdict,
} from '../../domain/index.ts';

/** A planner result; every list defaults to empty. */
export function buildPlannerResult(fields: Partial<Omit<PlannerResult, 'role'>> = {}): PlannerResult {
  return { role: 'planner', create: [], close: [], update: [], ...fields };
}

/**
 * An implementor result. `completed` gets a patch adding `src/scripted-change.ts` unless one is given; other
 * outcomes always carry a null patch (the real adapter only attaches a patch to completed runs).
 */
export function buildImplementorResult(
  outcome: ImplementorOutcome = 'completed',
  fields: { summary?: string; patch?: string } = {},
): ImplementorResult {
  return {
    role: 'implementor',
    outcome,
    summary: fields.summary ?? `Scripted implementor: ${outcome}`,
    patch:
      outcome === 'completed'
        ? (fields.patch ?? buildAddFilePatch('src/scripted-change.ts', 'export {};\n'))
        : null,
  };
}

export function buildReviewerResult(
  verdict: ReviewVerdict = 'approve',
  fields: { summary?: string; comments?: AgentReviewComment[] } = {},
): ReviewerResult {
  return {
    role: 'reviewer',
    review: {
      verdict,
      summary: fields.summary ?? `Scripted review: ${verdict}`,
      comments: fields.comments ?? [],
    },
  };
}

/** A `git diff` that adds one text file with this content. */
export function buildAddFilePatch(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    'index 0000000..1111111',
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +1${lines.length === 1 ? '' : `,${lines.length}`} @@`,
    ...lines.map((line) => `+${line}`),
    ...(content.endsWith('\n') ? [] : ['\\ No newline at end of file']),
    '',
  ].join('\n');
}
