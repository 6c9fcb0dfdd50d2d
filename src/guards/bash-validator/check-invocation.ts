import { buildCommandInspectors, inspectMkfs } from './command-inspectors.ts';
import { commandBaseName } from './command-word.ts';
import { findDangerousVariable } from './dangerous-variables.ts';
import { inspectReadOnly } from './inspect-read-only.ts';
import { displayValue, notAllowedMessage, patternMessage } from './messages.ts';
import type { CommandInspector, CommandWord, InspectionContext, Invocation } from './types.ts';

let inspectors: ReadonlyMap<string, CommandInspector> | undefined;

/**
 * Applies every rule to one simple command: the name must be literal, the variables it sets must be
 * harmless, no block pattern may match its rendering, the structural inspector for its name must pass
 * (which validates wrapped commands and nested scripts), and the name must be allowed.
 */
export function checkInvocation(invocation: Invocation, context: InspectionContext): void {
  const nameWord = invocation.words[0];
  if (!nameWord) return;
  const name = nameWord.value;
  if (nameWord.dynamic) {
    context.report(
      'danger',
      `Blocked: the command name '${displayValue(name)}' is computed at run time; only literal command names can be checked`,
    );
    return;
  }
  if (nameWord.glob) {
    context.report('danger', `Blocked: the command name '${name}' is a glob pattern`);
    return;
  }
  if (name.length === 0) {
    context.report('danger', 'Blocked: empty command name');
    return;
  }
  for (const variable of invocation.assignedNames) {
    const problem = findDangerousVariable(variable);
    if (problem) context.report('danger', problem);
  }
  const baseName = commandBaseName(name);
  const rendering = [baseName, ...invocation.words.slice(1).map((word) => word.masked)].join(' ');
  for (const pattern of context.rules.blockPatterns) {
    if (pattern.regex.test(rendering)) context.report('danger', patternMessage(pattern.source));
  }
  inspectors ??= buildCommandInspectors();
  const inspector = inspectors.get(baseName) ?? (baseName.startsWith('mkfs') ? inspectMkfs : undefined);
  inspector?.({ ...invocation, words: invocation.words.map(treatOpenGlobAsDynamic) }, context);
  if (context.rules.readOnly === true)
    inspectReadOnly({ ...invocation, words: invocation.words.map(treatOpenGlobAsDynamic) }, context);
  if (!invocation.exemptFromAllowlist && !context.rules.allowedCommands.has(name)) {
    context.report('not-allowed', notAllowedMessage(name));
  }
}

/**
 * A glob expands to names of files the agent may have created (`touch -- --hard; git reset --ha*`). One that
 * starts with a glob character or a dash could expand to an option, so inspectors see it as a run-time value.
 * Globs with a literal, non-dash first character (`src/*.ts`) keep their pattern and can only expand to paths.
 */
function treatOpenGlobAsDynamic(word: CommandWord, index: number): CommandWord {
  if (index === 0 || !word.glob || word.dynamic) return word;
  const first = word.value[0];
  if (first === undefined || first === '*' || first === '?' || first === '[' || first === '-') {
    return { ...word, dynamic: true };
  }
  return word;
}
