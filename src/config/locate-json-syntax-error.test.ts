import { describe, expect, it } from 'vitest';
import { locateJsonSyntaxError } from './locate-json-syntax-error.ts';

describe('locateJsonSyntaxError', () => {
  it('accepts exactly what JSON.parse accepts on a range of documents', () => {
    const samples = [
      '{}',
      ' [ ] ',
      '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9\\"", {"b": {}}]}',
      '0',
      '"é"',
      '{"a": 01}',
      '{"a": .5}',
      '{"a": 1.}',
      '{"a": "\\x"}',
      '{"a": "\\u12"}',
      '[1,]',
      '{"a" : 1 ,}',
      'nul',
      '-',
      "{'a': 1}",
      '{"a": 1}}',
    ];
    for (const sample of samples) {
      let valid = true;
      try {
        JSON.parse(sample);
      } catch {
        valid = false;
      }
      expect(locateJsonSyntaxError(sample) === undefined, sample).toBe(valid);
    }
  });

  it('counts lines and columns from 1', () => {
    expect(locateJsonSyntaxError('{\n  "a": 1,\n  "b": ?\n}')).toEqual({
      line: 3,
      column: 8,
      message: 'expected a value, found "?"',
    });
  });
});
