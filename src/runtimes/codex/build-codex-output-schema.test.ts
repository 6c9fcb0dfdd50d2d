import { describe, expect, it } from 'vitest';
import { buildCodexOutputSchema, findStrictModeProblems } from './build-codex-output-schema.ts';

describe('buildCodexOutputSchema', () => {
  it('gives every role a schema strict structured output accepts', () => {
    for (const role of ['planner', 'implementor', 'reviewer'] as const) {
      const schema = buildCodexOutputSchema(role);
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(schema).not.toHaveProperty('$schema');
    }
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
