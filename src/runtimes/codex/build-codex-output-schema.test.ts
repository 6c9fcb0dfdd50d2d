import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateAgentOutputOrQuestions } from '../../engine/runtime-contract/index.ts';
import { buildCodexOutputSchema, findStrictModeProblems } from './build-codex-output-schema.ts';

describe('buildCodexOutputSchema', () => {
  it('gives every role a schema strict structured output accepts', () => {
    for (const role of ['planner', 'implementor', 'reviewer'] as const) {
      const schema = buildCodexOutputSchema(role);
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(schema).not.toHaveProperty('$schema');
    }
  });

  it('offers every role the questions option in one root object (strict mode refuses a root anyOf)', () => {
    for (const role of ['planner', 'implementor', 'reviewer'] as const) {
      const schema = buildCodexOutputSchema(role);
      expect(schema).not.toHaveProperty('anyOf');
      const accepts = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      // What a strict-mode model sends to ask: every other field null.
      const nulls = Object.fromEntries(Object.keys(schema.properties as object).map((name) => [name, null]));
      const question = { ...nulls, role, outcome: 'questions', questions: ['Which database?'] };
      expect(accepts.safeParse(question).success).toBe(true);
      expect(validateAgentOutputOrQuestions(role, question)).toEqual({
        ok: true,
        value: { kind: 'questions', questions: ['Which database?'] },
      });
    }
  });

  it('gives the read-only modes (investigate, refine) strict schemas of their reports, with questions', () => {
    for (const mode of ['investigate', 'refine'] as const) {
      const schema = buildCodexOutputSchema('implementor', mode);
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(schema.properties).toHaveProperty('mode');
      expect(schema.properties).toHaveProperty('questions');
      expect(schema.properties).not.toHaveProperty('role');
    }
  });

  it('a result with its fields left null is refused as the role result, naming them', () => {
    const answer = { role: 'reviewer', review: null, outcome: null, questions: null };
    const validated = validateAgentOutputOrQuestions('reviewer', answer);
    expect(validated.ok).toBe(false);
    expect(validated.ok ? '' : validated.error).toContain('review');
  });

  it('names each object that allows extra or optional properties, by path', () => {
    const schema = {
      type: 'object',
      properties: {
        review: {
          type: 'object',
          properties: { verdict: { type: 'string' }, note: { type: 'string' } },
          required: ['verdict'],
          additionalProperties: false,
        },
        items: {
          type: 'array',
          items: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        },
      },
      required: ['review', 'items'],
      additionalProperties: false,
    };
    expect(findStrictModeProblems(schema, '(root)')).toEqual([
      'review: every property must be required (note)',
      'items.items: additionalProperties must be false',
    ]);
  });
});
