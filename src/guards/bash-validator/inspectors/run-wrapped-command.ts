import { commandBaseName } from '../command-word.ts';
import type { CommandWord, InspectionContext, Invocation } from '../types.ts';

/**
 * Validates the command a wrapper runs (`env X cmd`, `xargs cmd`, `find -exec cmd ;`) with the full rules.
 * The wrapped command keeps the wrapper's standard input unless `stdin` overrides it.
 */
export function runWrappedCommand(
  wrapper: Invocation,
  words: readonly CommandWord[],
  context: InspectionContext,
  options: { assignedNames?: readonly string[]; stdin?: Invocation['stdin']; exempt?: boolean } = {},
): void {
  if (words.length === 0) return;
  context.checkInvocation({
    words,
    assignedNames: options.assignedNames ?? [],
    stdin: options.stdin ?? wrapper.stdin,
    exemptFromAllowlist: options.exempt ?? false,
    via: [...wrapper.via, commandBaseName(wrapper.words[0]!.value)],
  });
}

/** True when any word is (partly) computed at run time. */
export function hasDynamicWord(words: readonly CommandWord[]): boolean {
  return words.some((word) => word.dynamic);
}

/** Reports a block for a command whose arguments must be known to be judged. */
export function reportDynamicArguments(name: string, context: InspectionContext): void {
  context.report(
    'danger',
    `Blocked: '${name}' has arguments computed at run time, and its arguments decide whether it is safe`,
  );
}
