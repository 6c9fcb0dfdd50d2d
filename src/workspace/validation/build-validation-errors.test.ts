import { describe, expect, it } from 'vitest';
import { buildValidationErrors } from './build-validation-errors.ts';
import { buildValidationFixPrompt } from './build-validation-fix-prompt.ts';

describe('buildValidationErrors', () => {
  it('names the command and why it failed, with its output in a fence', () => {
    expect(
      buildValidationErrors({ command: 'npm test', reason: 'exited with code 1', output: 'FAIL greet\n' }),
    ).toBe(['`npm test` exited with code 1:', '', '```text', 'FAIL greet', '```'].join('\n'));
  });

  it('uses a fence the output cannot close, and says when there was no output', () => {
    expect(
      buildValidationErrors({ command: 'lint', reason: 'exited with code 2', output: 'see ````x````' }),
    ).toContain('`````text\nsee ````x````\n`````');
    expect(buildValidationErrors({ command: 'true', reason: 'timed out after 5 s', output: '' })).toContain(
      '```text\n(no output)\n```',
    );
  });

  it('keeps only the tail of long output and says it was truncated', () => {
    const output = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n');
    const errors = buildValidationErrors({ command: 'npm test', reason: 'exited with code 1', output });
    expect(errors).toContain('[output truncated: 500 lines in all, showing the last 200 lines]\nline 301\n');
    expect(errors).not.toContain('line 300\n');
    expect(errors).toContain('line 500\n```');
  });
});

describe('buildValidationFixPrompt', () => {
  it("uses seed 003's wording and appends the errors", () => {
    expect(buildValidationFixPrompt('ERRORS')).toBe(
      'The previous attempt produced validation errors. Fix these issues in the same worktree, then report your\nresult again (StructuredOutput) as before:\n\nERRORS',
    );
  });
});
