import { describe, expect, it } from 'vitest';
import { checkClaudeAvailability } from './check-claude-availability.ts';

describe('checkClaudeAvailability', () => {
  it('is available with the binary and a credential', () => {
    expect(checkClaudeAvailability({ ANTHROPIC_API_KEY: 'k' }, '/bin/claude')).toEqual({ available: true });
  });

  it('names a missing binary and missing credentials, each', () => {
    const result = checkClaudeAvailability({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }, null);
    expect(result.available).toBe(false);
    const problems = result.available ? [] : result.problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/no Claude Code binary for .*--omit=optional/);
    expect(problems[1]).toMatch(/no model credentials/);
  });

  it('does not count a blank credential', () => {
    expect(checkClaudeAvailability({ ANTHROPIC_API_KEY: '  ' }, '/bin/claude').available).toBe(false);
  });
});
