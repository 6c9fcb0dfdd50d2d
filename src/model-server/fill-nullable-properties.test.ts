import { describe, expect, it } from 'vitest';
import { fillNullableProperties } from './fill-nullable-properties.ts';

describe('fillNullableProperties', () => {
  const schema = {
    type: 'object',
    properties: {
      role: { type: 'string' },
      questions: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      note: { type: ['string', 'null'] },
      summary: { type: 'string' },
    },
    required: ['role', 'questions', 'note', 'summary'],
    additionalProperties: false,
  };

  it('sets left-out properties that accept null to null, and only those', () => {
    expect(fillNullableProperties({ role: 'implementor' }, schema)).toEqual({
      role: 'implementor',
      questions: null,
      note: null,
    });
  });

  it('keeps what the script gives', () => {
    expect(
      fillNullableProperties({ role: 'r', questions: ['Why?'], note: 'n', summary: 's' }, schema),
    ).toEqual({
      role: 'r',
      questions: ['Why?'],
      note: 'n',
      summary: 's',
    });
  });
});
