import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector } from '../types.ts';

/** `uniq INPUT OUTPUT` writes OUTPUT. */
export const inspectUniq: CommandInspector = (invocation, context) => {
  for (const word of invocation.words.slice(1)) {
    if (word.value.startsWith('-') && !word.dynamic) continue;
    const problem = findProtectedPathInArgument(word, context.place);
    if (problem) {
      context.report('danger', `Blocked: 'uniq' refused: ${problem}`);
      return;
    }
  }
};
