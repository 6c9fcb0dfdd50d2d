/** The follow-up prompt of a fix round (docs/runtime-spec.md §Validation Errors): the errors of the last validation. */
export function buildValidationFixPrompt(errors: string): string {
  return [
    'The previous attempt produced validation errors. Fix these issues in the same worktree, then report your',
    'result again (StructuredOutput) as before:',
    '',
    errors,
  ].join('\n');
}
