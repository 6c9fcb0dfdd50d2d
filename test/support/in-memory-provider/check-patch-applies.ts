import type { CreateRevisionInput } from '../../../src/providers/types.ts';

/** A patch containing this text "does not apply" under the default check (simulates a merge conflict). */
export const PATCH_CONFLICT_MARKER = 'FLOTILLA-TEST-PATCH-CONFLICT';

/** Throws to reject the patch; createFromPatch then writes nothing. */
export type PatchApplyCheck = (input: CreateRevisionInput) => void;

/**
 * The default check, standing in for `git apply`: an empty patch, or one containing PATCH_CONFLICT_MARKER,
 * does not apply. Anything else is accepted without looking at its content.
 */
export function checkPatchApplies(input: CreateRevisionInput): void {
  if (input.patch.trim() === '') {
    throw new Error(`patch for work item ${input.workItemID} is empty`);
  }
  if (input.patch.includes(PATCH_CONFLICT_MARKER)) {
    throw new Error(`patch for work item ${input.workItemID} does not apply to the default branch`);
  }
}
