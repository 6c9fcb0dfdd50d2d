import { PATTERN } from '../default-bash-validator-rules.ts';
import { patternMessage } from '../messages.ts';
import type { CommandInspector } from '../types.ts';

/** Commands the published blocklist names; blocked however they are spelled or wrapped. */
export function createPatternInspector(source: string): CommandInspector {
  return (_invocation, context) => context.report('danger', patternMessage(source));
}

/** `dd` is blocked when it reads an input file (`if=`), as the published `\bdd\s+if=` intends. */
export const inspectDd: CommandInspector = (invocation, context) => {
  if (invocation.words.slice(1).some((word) => word.dynamic || word.value.startsWith('if='))) {
    context.report('danger', patternMessage(PATTERN.ddIf));
  }
};

/** Builtins that run a string or a file as shell code the validator never sees. */
export const inspectCodeEvaluator: CommandInspector = (invocation, context) => {
  context.report(
    'danger',
    `Blocked: '${invocation.words[0]!.value}' runs a string or file as shell code, which cannot be checked`,
  );
};
