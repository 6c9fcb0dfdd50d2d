// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash source, where ${…} is literal syntax.
import { describe, expect, it } from 'vitest';
import { expandBraces, MAX_BRACE_EXPANSIONS } from './expand-braces.ts';

describe('expandBraces', () => {
  it('expands comma lists and sequences', () => {
    expect(expandBraces('{rm,-rf,x}')).toEqual(['rm', '-rf', 'x']);
    expect(expandBraces('a{b,c}d')).toEqual(['abd', 'acd']);
    expect(expandBraces('f{1..3}')).toEqual(['f1', 'f2', 'f3']);
    expect(expandBraces('{c..a}')).toEqual(['c', 'b', 'a']);
    expect(expandBraces('{a,{b,c}}')).toEqual(['a', 'b', 'c']);
  });

  it('leaves escaped braces, ${…} and non-lists alone', () => {
    expect(expandBraces('\\{a,b\\}')).toEqual(['\\{a,b\\}']);
    expect(expandBraces('${a,b}')).toEqual(['${a,b}']);
    expect(expandBraces('{}')).toEqual(['{}']);
    expect(expandBraces('{x}')).toEqual(['{x}']);
  });

  it('gives up (null) past the expansion limit', () => {
    expect(expandBraces(`{1..${MAX_BRACE_EXPANSIONS * 2}}`)).toBeNull();
    expect(expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toBeNull();
  });
});
