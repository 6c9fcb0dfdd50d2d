import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandWord, InspectionContext } from '../types.ts';
import { isLongOption } from './git-option-words.ts';

/** Built-in merge strategies; any other name runs a `git-merge-<name>` program from PATH. */
const MERGE_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);

/** URL schemes git handles itself; any other `scheme://` or `scheme::` runs a `git-remote-<scheme>` program. */
const BUILT_IN_URL_SCHEMES = new Set([
  'http',
  'https',
  'ssh',
  'git',
  'file',
  'ftp',
  'ftps',
  'git+ssh',
  'ssh+git',
]);

/** Options that name a program (or a hook template directory) for git to run, and where they apply. */
const PROGRAM_OPTIONS: ReadonlyArray<{ option: string; applies: (subcommand: string) => boolean }> = [
  { option: 'upload-pack', applies: () => true },
  { option: 'receive-pack', applies: () => true },
  { option: 'exec', applies: (subcommand) => subcommand !== 'rebase' },
  { option: 'extcmd', applies: () => true },
  { option: 'template', applies: (subcommand) => subcommand === 'init' || subcommand === 'clone' },
  { option: 'open-files-in-pager', applies: (subcommand) => subcommand === 'grep' },
];

/** Options whose value is a path git writes to. */
const OUTPUT_OPTIONS = ['output', 'output-directory', 'separate-git-dir', 'work-tree'];

/**
 * Options and arguments of any subcommand that make git run a program (`ext::` transports, remote helpers,
 * merge strategies, `--upload-pack`…) or write where agents may not (`--output`, `-o`, the paths of
 * `worktree`, `clone`, `init`, `archive`).
 */
export function checkProgramAndOutputOptions(
  subcommand: string,
  args: readonly CommandWord[],
  context: InspectionContext,
): void {
  for (let k = 0; k < args.length; k += 1) {
    const arg = args[k]!;
    checkTransport(arg.value, context);
    checkMergeStrategy(subcommand, args, k, context);
    for (const { option, applies } of PROGRAM_OPTIONS) {
      if (applies(subcommand) && isLongOption(arg, option, 3)) {
        context.report('danger', `Blocked: 'git ${subcommand} --${option}' names a program for git to run`);
      }
    }
    checkOutputOptions(subcommand, args, k, context);
  }
  if (
    subcommand === 'worktree' ||
    subcommand === 'clone' ||
    subcommand === 'init' ||
    subcommand === 'archive'
  ) {
    for (const arg of args) {
      const problem = findProtectedPathInArgument(arg, context.place);
      if (problem) context.report('danger', `Blocked: 'git ${subcommand}' refused: ${problem}`);
    }
  }
}

/** `ext::` and `fd::` transports, and URL schemes git hands to a `git-remote-<scheme>` program. */
function checkTransport(value: string, context: InspectionContext): void {
  if (/^(ext|fd)::/.test(value) || value.includes('::ext::')) {
    context.report('danger', "Blocked: git 'ext::' and 'fd::' transports run commands");
  }
  const helper = /^([A-Za-z][A-Za-z0-9+.-]*)(::|:\/\/)/.exec(value);
  if (
    helper &&
    !/^(ext|fd)$/.test(helper[1]!) &&
    (helper[2] === '::' || !BUILT_IN_URL_SCHEMES.has(helper[1]!.toLowerCase()))
  ) {
    context.report('danger', `Blocked: git URL scheme '${helper[1]}' runs a git-remote-${helper[1]} program`);
  }
}

/** A merge strategy that is not built in runs a `git-merge-<name>` program. */
function checkMergeStrategy(
  subcommand: string,
  args: readonly CommandWord[],
  k: number,
  context: InspectionContext,
): void {
  const value = args[k]!.value;
  // `-s` means --strategy for merge, pull and rebase (but --signoff for cherry-pick and revert).
  const shortStrategy = ['merge', 'pull', 'rebase'].includes(subcommand);
  const strategy =
    value === '--strategy' || (value === '-s' && shortStrategy)
      ? args[k + 1]?.value
      : (/^--strategy=(.+)$/.exec(value)?.[1] ?? (shortStrategy ? /^-s(.+)$/.exec(value)?.[1] : undefined));
  if (strategy !== undefined && ['merge', 'pull', 'rebase', 'cherry-pick', 'revert'].includes(subcommand)) {
    if (!MERGE_STRATEGIES.has(strategy)) {
      context.report('danger', `Blocked: merge strategy '${strategy}' runs a git-merge-${strategy} program`);
    }
  }
}

/** Options whose value is a path git writes to (`--output`, `-o`…): refused on a protected path. */
function checkOutputOptions(
  subcommand: string,
  args: readonly CommandWord[],
  k: number,
  context: InspectionContext,
): void {
  const arg = args[k]!;
  for (const option of OUTPUT_OPTIONS) {
    if (!isLongOption(arg, option, 3)) continue;
    const target = arg.value.includes('=') ? arg : args[k + 1];
    const problem = target ? findProtectedPathInArgument(target, context.place) : null;
    if (problem) context.report('danger', `Blocked: 'git ${subcommand} --${option}' refused: ${problem}`);
  }
  if (arg.value === '-o' && args[k + 1]) {
    const problem = findProtectedPathInArgument(args[k + 1]!, context.place);
    if (problem) context.report('danger', `Blocked: 'git ${subcommand} -o' refused: ${problem}`);
  }
}
