import { commandBaseName } from '../command-word.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector } from '../types.ts';

/** Commands that write file contents to paths named in their arguments. */
export const FILE_WRITER_COMMANDS: readonly string[] = ['cp', 'mv', 'tee', 'install', 'ln', 'rsync'];

/**
 * `cp`, `mv`, `tee`, `install`, `ln`, `rsync`: no argument may name a protected path (`.git/hooks/…`,
 * `~/.gitconfig`, `.npmrc`, …), and arguments computed at run time are refused because they could.
 */
export const inspectFileWriter: CommandInspector = (invocation, context) => {
  const name = commandBaseName(invocation.words[0]!.value);
  for (const word of invocation.words.slice(1)) {
    const problem = findProtectedPathInArgument(word, context.place);
    if (problem) {
      context.report('danger', `Blocked: '${name}' refused: ${problem}`);
      return;
    }
  }
};
