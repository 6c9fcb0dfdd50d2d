import { describe, expect, it } from 'vitest';
import { isPermanentFailure } from './is-permanent-failure.ts';

describe('isPermanentFailure', () => {
  it.each([
    'credentials: the implementor could not authenticate',
    'the implementor session ended with an error: API Error: 400 [flotilla model-server] no route matches this request — agent: implementor',
    "the implementor session failed: API Error: 400 [flotilla model-server] script exhausted: route 'implementor' has 2 step(s)",
    "API Error: 400 [flotilla model-server] unmet expectation for route 'reviewer' step 0: …",
    'provisioning failed: Cannot read the implementor agent definition /r/.claude/agents/implementor.md: ENOENT',
    'Cannot read the project context file /r/.claude/CLAUDE.md: ENOENT: no such file or directory',
    'Malformed YAML front matter in /r/.claude/agents/planner.md: bad indentation',
    'Invalid "maxTurns" in /r/.claude/agents/reviewer.md: expected a positive integer, got "x"',
  ])('%s: would repeat on any runtime', (error) => {
    expect(isPermanentFailure(error, 'claude')).toBe(true);
  });

  it('counts a schema error as permanent only for a scripted run (a model may answer better next time)', () => {
    const error = 'Invalid implementor output: outcome: expected one of completed, blocked';
    expect(isPermanentFailure(error, 'scripted')).toBe(true);
    expect(isPermanentFailure(error, 'claude')).toBe(false);
    expect(isPermanentFailure('The reviewer produced no structured output', 'scripted')).toBe(true);
  });

  it.each([
    'the implementor session ended with an error: API Error: 500 internal',
    'no output for 600s; cancelled as stalled',
    'the implementor reported completed but changed nothing (empty patch)',
  ])('%s: may pass on a retry', (error) => {
    expect(isPermanentFailure(error, 'scripted')).toBe(false);
  });

  it('is false without an error', () => {
    expect(isPermanentFailure(null, 'claude')).toBe(false);
    expect(isPermanentFailure(undefined, undefined)).toBe(false);
  });
});
