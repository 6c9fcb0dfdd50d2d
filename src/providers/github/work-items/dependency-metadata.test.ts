import { describe, expect, it } from 'vitest';
import { buildIssueBody, parseBlockedBy, stripDependencyMetadata } from './dependency-metadata.ts';

describe('dependency metadata in issue bodies', () => {
  it('round-trips the description exactly and the ids in order', () => {
    const description = 'Objective\n\n<!-- a human comment -->\n';
    const body = buildIssueBody(description, ['12', '3']);
    expect(body).toBe('Objective\n\n<!-- a human comment -->\n\n\n<!-- flotilla:blockedBy #12 #3 -->');
    expect(parseBlockedBy(body)).toEqual(['12', '3']);
    expect(stripDependencyMetadata(body)).toBe(description);
  });

  it('writes nothing without dependencies and reads decree’s format', () => {
    expect(buildIssueBody('x', [])).toBe('x');
    expect(parseBlockedBy('x')).toEqual([]);
    expect(parseBlockedBy('Do it\n\n<!-- decree:blockedBy #42 #43 -->')).toEqual(['42', '43']);
    expect(stripDependencyMetadata('Do it\n\n<!-- decree:blockedBy #42 -->')).toBe('Do it');
  });
});
