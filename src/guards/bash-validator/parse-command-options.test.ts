import { describe, expect, it } from 'vitest';
import { buildDynamicWord, buildStaticWord } from './command-word.ts';
import { type OptionSpec, parseCommandOptions } from './parse-command-options.ts';

const words = (...values: string[]) => values.map(buildStaticWord);
const SPEC: OptionSpec = {
  short: { n: 'flag', e: 'value', i: 'optional' },
  long: { expression: 'value', 'in-place': 'optional', quiet: 'flag' },
  permute: true,
};

describe('parseCommandOptions', () => {
  it('parses clusters, attached and separate values, and long options with abbreviations', () => {
    const parsed = parseCommandOptions(words('-ne', 's/a/b/', '--exp=p', '-i.bak', '--in', 'file'), SPEC);
    expect(parsed.error).toBeNull();
    expect(parsed.options.map((option) => [option.name, option.value?.value ?? null])).toEqual([
      ['-n', null],
      ['-e', 's/a/b/'],
      ['--expression', 'p'],
      ['-i', '.bak'],
      ['--in-place', null],
    ]);
    expect(parsed.operands.map((word) => word.value)).toEqual(['file']);
  });

  it('permutes options after operands, and stops at -- ', () => {
    const parsed = parseCommandOptions(words('file', '-n', '--', '-e'), SPEC);
    expect(parsed.options.map((option) => option.name)).toEqual(['-n']);
    expect(parsed.operands.map((word) => word.value)).toEqual(['file', '-e']);
  });

  it('stops at the first operand when not permuting', () => {
    const parsed = parseCommandOptions(words('-n', 'cmd', '-e', 'x'), { ...SPEC, permute: false });
    expect(parsed.operands.map((word) => word.value)).toEqual(['cmd', '-e', 'x']);
  });

  it('reports unknown, ambiguous and valueless options', () => {
    expect(parseCommandOptions(words('-z'), SPEC).error).toMatch(/unrecognised/);
    expect(
      parseCommandOptions(words('--q', '--e', 'x'), { ...SPEC, long: { ...SPEC.long, exit: 'flag' } }).error,
    ).toMatch(/ambiguous/);
    expect(parseCommandOptions(words('-e'), SPEC).error).toMatch(/needs a value/);
  });

  it('reports run-time arguments that could be options', () => {
    expect(parseCommandOptions([buildDynamicWord()], SPEC).error).toMatch(/run time/);
  });
});
