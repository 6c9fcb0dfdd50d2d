import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ImplementorResult, PlannerResult, ReviewerResult } from '../../domain/index.ts';
import {
  buildOutputJsonSchema,
  type ImplementorOutput,
  ImplementorOutputSchema,
  PlannerOutputSchema,
  ReviewerOutputSchema,
  validateAgentOutput,
} from './agent-output-schemas.ts';

const plannerOutput: PlannerResult = {
  role: 'planner',
  create: [{ tempID: 't1', title: 'Add login', body: 'Do it', labels: ['priority:high'], blockedBy: ['7'] }],
  close: ['3'],
  update: [{ workItemID: '4', body: null, labels: ['x'] }],
  summary: 'Login first, then the old form goes',
};
const implementorOutput: ImplementorOutput = { role: 'implementor', outcome: 'completed', summary: 'Done' };
const reviewerOutput: ReviewerResult = {
  role: 'reviewer',
  review: {
    verdict: 'needs-changes',
    summary: 'One problem',
    comments: [
      { path: 'src/a.ts', line: 12, body: 'Off by one' },
      { path: 'src/b.ts', line: null, body: 'File-level note' },
    ],
  },
};

describe('output schemas', () => {
  it('infer exactly the domain result types (implementor without patch)', () => {
    expectTypeOf<z.infer<typeof PlannerOutputSchema>>().toEqualTypeOf<PlannerResult>();
    expectTypeOf<z.infer<typeof ReviewerOutputSchema>>().toEqualTypeOf<ReviewerResult>();
    expectTypeOf<z.infer<typeof ImplementorOutputSchema>>().toEqualTypeOf<
      Omit<ImplementorResult, 'patch' | 'base' | 'report'>
    >();
  });

  it('accept a valid output of each role', () => {
    expect(PlannerOutputSchema.parse(plannerOutput)).toEqual(plannerOutput);
    // A plan without a summary is valid too (the JSON Schema leaves it optional; codex's lists it, nullable).
    const { summary: _summary, ...unsummarized } = plannerOutput;
    expect(PlannerOutputSchema.parse(unsummarized)).toEqual(unsummarized);
    expect(buildOutputJsonSchema('planner').required).toEqual(['role', 'create', 'close', 'update']);
    expect(ImplementorOutputSchema.parse(implementorOutput)).toEqual(implementorOutput);
    expect(ReviewerOutputSchema.parse(reviewerOutput)).toEqual(reviewerOutput);
  });

  it('reject an implementor outcome outside completed, blocked, validation-failure', () => {
    expect(ImplementorOutputSchema.safeParse({ ...implementorOutput, outcome: 'done' }).success).toBe(false);
  });
});

describe('buildOutputJsonSchema', () => {
  it.each(['planner', 'implementor', 'reviewer'] as const)(
    'has no $schema key for the %s (the CLI rejects it)',
    (role) => {
      const schema = buildOutputJsonSchema(role);
      expect(schema).not.toHaveProperty('$schema');
      expect(JSON.stringify(schema)).not.toContain('$schema');
    },
  );

  it('describes the implementor output: role const, outcome enum, no patch, nothing extra', () => {
    expect(buildOutputJsonSchema('implementor')).toEqual({
      type: 'object',
      properties: {
        role: { type: 'string', const: 'implementor' },
        outcome: { type: 'string', enum: ['completed', 'blocked', 'validation-failure'] },
        summary: { type: 'string' },
      },
      required: ['role', 'outcome', 'summary'],
      additionalProperties: false,
    });
  });

  it('allows null for a reviewer comment line and a planner update body', () => {
    const reviewer = JSON.stringify(buildOutputJsonSchema('reviewer'));
    expect(reviewer).toContain('"line":{"type":["number","null"]}');
    const planner = JSON.stringify(buildOutputJsonSchema('planner'));
    expect(planner).toContain('"body":{"type":["string","null"]}');
  });

  it('is plain JSON (round-trips unchanged)', () => {
    const schema = buildOutputJsonSchema('planner');
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('validateAgentOutput', () => {
  it("Given an agent session completes with valid structured output matching the role's Zod schema, when safeParse validates it, then handle.result resolves with the correctly typed result", () => {
    const planner = validateAgentOutput('planner', plannerOutput);
    expect(planner).toEqual({ ok: true, value: plannerOutput });
    const reviewer = validateAgentOutput('reviewer', reviewerOutput);
    expect(reviewer).toEqual({ ok: true, value: reviewerOutput });
    const implementor = validateAgentOutput('implementor', implementorOutput);
    expect(implementor).toEqual({ ok: true, value: implementorOutput });
    if (implementor.ok) expectTypeOf(implementor.value).toEqualTypeOf<ImplementorOutput>();
  });

  it('drops keys the schema does not know (an agent-supplied patch is not trusted)', () => {
    const result = validateAgentOutput('implementor', { ...implementorOutput, patch: 'diff --git …' });
    expect(result).toEqual({ ok: true, value: implementorOutput });
  });

  it('names the path of every problem', () => {
    const result = validateAgentOutput('planner', {
      role: 'planner',
      create: [{ tempID: 't1', title: 42, body: 'b', labels: [], blockedBy: [] }],
      close: 'nope',
      update: [{ workItemID: '1', body: null, labels: [3] }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('Invalid planner output');
    expect(result.error).toContain('create[0].title: Invalid input: expected string, received number');
    expect(result.error).toContain('close: Invalid input: expected array, received string');
    expect(result.error).toContain('update[0].labels[0]: Invalid input: expected string, received number');
  });

  it('rejects output of another role', () => {
    const result = validateAgentOutput('reviewer', implementorOutput);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('role: Invalid input: expected "reviewer"');
  });

  it('says so when there is no structured output at all', () => {
    expect(validateAgentOutput('implementor', undefined)).toEqual({
      ok: false,
      error: 'The implementor produced no structured output',
    });
    expect(validateAgentOutput('planner', null).ok).toBe(false);
  });

  it('names the root when the output is not an object', () => {
    const result = validateAgentOutput('implementor', 'completed');
    expect(result).toEqual({
      ok: false,
      error: 'Invalid implementor output: (root): Invalid input: expected object, received string',
    });
  });
});
