import { commandBaseName } from './command-word.ts';
import type { CommandWord, InspectionContext, Invocation } from './types.ts';

/**
 * Read-only sessions (issue #29 modes `investigate` and `refine`): the agent reads code and runs the tests,
 * and never writes a file. On top of every other rule, each simple command must be on this list, with the
 * argument checks below; anything else is refused (fail closed: a command not listed is a write until it is
 * shown not to be). Output redirections may only go to /dev/null and the standard streams
 * (walk-shell-file.ts). The tests themselves may write caches: the OS sandbox bounds those, not this list.
 */
const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  'cat',
  'head',
  'tail',
  'grep',
  'rg',
  'wc',
  'ls',
  'pwd',
  'echo',
  'printf',
  'diff',
  'cut',
  'tr',
  'uniq',
  'sort',
  'jq',
  'file',
  'stat',
  'which',
  'true',
  'false',
  'test',
  '[',
  'basename',
  'dirname',
  'realpath',
  'find',
  'tree',
  'xargs',
  'timeout',
  'git',
  'npm',
  'npx',
  'pnpm',
  'yarn',
]);

/** git subcommands that only read the repository (no index, ref, config or work-tree write). */
const READ_ONLY_GIT = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'rev-list',
  'cat-file',
  'describe',
  'shortlog',
  'merge-base',
  'show-ref',
]);

/** The package-manager scripts a read-only session may run: the tests and the type check. */
const TEST_SCRIPTS = /^(test|t|tst|test:[\w:-]+|typecheck|lint)$/;
/** Package binaries a read-only session may run through npx / pnpm exec: test runners and checkers. */
const TEST_BINARIES = new Set(['vitest', 'jest', 'mocha', 'tsc', 'biome', 'eslint']);
/** Options of those binaries that write files (snapshots, fixes, emitted output). */
const WRITING_OPTIONS =
  /^(-u|--update|--updateSnapshot|--write|--fix|--apply|--apply-unsafe|--outDir|--outFile|-w|--watch|--coverage)/;

/** The commands below whose arguments are checked: run-time arguments cannot be, so they are refused. */
const ARGUMENT_CHECKED = new Set(['sort', 'uniq', 'find', 'tree', 'git', 'npm', 'pnpm', 'yarn', 'npx']);

const refuse = (context: InspectionContext, what: string) =>
  context.report('danger', `Blocked: this session is read-only (investigate/refine modes): ${what}`);

/** Applies the read-only rules to one simple command (see READ_ONLY_COMMANDS). */
export function inspectReadOnly(invocation: Invocation, context: InspectionContext): void {
  const name = invocation.words[0];
  if (name === undefined) return;
  const base = commandBaseName(name.value);
  const args = invocation.words.slice(1);
  // A package runner's target (`npx vitest run`): only the test runners and checkers, never writing.
  if (invocation.exemptFromAllowlist && TEST_BINARIES.has(base)) {
    checkTestBinary(invocation.words, context);
    return;
  }
  if (!READ_ONLY_COMMANDS.has(base)) {
    refuse(context, `'${base}' is not one of the read-only commands`);
    return;
  }
  // The commands whose arguments decide whether they write must have static ones (plain readers such as
  // `xargs grep -l x` may be handed run-time paths: they read them).
  if (ARGUMENT_CHECKED.has(base) && args.some((word) => word.dynamic)) {
    refuse(context, `'${base}' has an argument computed at run time`);
    return;
  }
  switch (base) {
    case 'sort':
      if (args.some((word) => /^(-o|--output)/.test(word.value))) refuse(context, "'sort -o' writes a file");
      return;
    case 'uniq':
      if (args.filter((word) => !word.value.startsWith('-')).length > 1)
        refuse(context, "'uniq' with an output file writes it");
      return;
    case 'find':
      if (
        args.some((word) => /^-(delete|fprint|fprint0|fprintf|fls|exec|execdir|ok|okdir)$/.test(word.value))
      )
        refuse(context, "'find' may only list files here (no -delete, -fprint, -exec)");
      return;
    case 'tree':
      if (args.some((word) => word.value === '-o')) refuse(context, "'tree -o' writes a file");
      return;
    case 'git':
      checkGit(args, context);
      return;
    case 'npm':
    case 'pnpm':
    case 'yarn':
      checkPackageScript(base, args, context);
      return;
    case 'npx':
      checkTestBinary(args, context);
      return;
    default:
      return;
  }
}

function checkGit(args: readonly CommandWord[], context: InspectionContext): void {
  let index = 0;
  while (index < args.length && args[index]!.value.startsWith('-')) {
    const option = args[index]!.value;
    index += option === '-C' || option === '-c' ? 2 : 1;
  }
  const subcommand = args[index]?.value;
  if (subcommand === undefined || !READ_ONLY_GIT.has(subcommand)) {
    refuse(context, `'git ${subcommand ?? ''}' is not a read-only git subcommand`);
    return;
  }
  if (args.some((word) => /^(--output|-o$|--ext-diff)/.test(word.value)))
    refuse(context, `'git ${subcommand}' with --output writes a file`);
}

function checkPackageScript(base: string, args: readonly CommandWord[], context: InspectionContext): void {
  const words = args.map((word) => word.value).filter((value) => !value.startsWith('-'));
  const [first, second] = words;
  if (first !== undefined && TEST_SCRIPTS.test(first)) return;
  if ((first === 'run' || first === 'run-script') && second !== undefined && TEST_SCRIPTS.test(second))
    return;
  if (base === 'pnpm' && first === 'exec') {
    checkTestBinary(args.slice(args.findIndex((word) => word.value === 'exec') + 1), context);
    return;
  }
  refuse(context, `'${base} ${words.join(' ')}' is not a test or check script`);
}

function checkTestBinary(args: readonly CommandWord[], context: InspectionContext): void {
  const target = args.find((word) => !word.value.startsWith('-'));
  if (target === undefined || !TEST_BINARIES.has(target.value)) {
    refuse(context, `'npx ${target?.value ?? ''}' is not a test runner or checker`);
    return;
  }
  const writing = args.find((word) => WRITING_OPTIONS.test(word.value));
  if (writing !== undefined) refuse(context, `'${target.value} ${writing.value}' writes files`);
}

/** Where a read-only session's output redirection may go: nowhere but the bit bucket and the streams. */
export function isReadOnlyRedirectTarget(path: string): boolean {
  return /^\/dev\/(null|stdout|stderr|fd\/[12])$/.test(path);
}
