import { DYNAMIC_MARK } from '../command-word.ts';
import { PATTERN } from '../default-bash-validator-rules.ts';
import { displayValue, patternMessage } from '../messages.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector, CommandWord, InspectionContext, Invocation } from '../types.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

/** Global options that take the next word as their value. */
const GLOBAL_OPTIONS_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--list-cmds',
  '--attr-source',
]);

const GLOBAL_FLAGS = new Set([
  '-p',
  '-P',
  '--paginate',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
  '--version',
  '-v',
  '--help',
  '-h',
  '--html-path',
  '--man-path',
  '--info-path',
  '--exec-path',
]);

/**
 * Config keys `git -c` and `git config` may set. Everything else is refused: alias.* ('!cmd'),
 * core.sshCommand, core.pager, core.editor, core.fsmonitor, core.hooksPath, diff/merge/filter drivers,
 * credential helpers, include.path, protocol.*.allow, url.*, safe.directory, … can all make git run a
 * program or trust a repository it should not.
 */
const SAFE_CONFIG_KEYS = new Set([
  'user.name',
  'user.email',
  'core.quotepath',
  'core.autocrlf',
  'core.safecrlf',
  'core.filemode',
  'core.ignorecase',
  'core.eol',
  'core.abbrev',
  'init.defaultbranch',
  'commit.gpgsign',
  'tag.gpgsign',
  'pull.rebase',
  'pull.ff',
  'merge.ff',
  'merge.conflictstyle',
  'rebase.autosquash',
  'rebase.autostash',
  'fetch.prune',
  'diff.renames',
  'diff.algorithm',
  'diff.colormoved',
  'diff.noprefix',
  'diff.mnemonicprefix',
  'log.date',
  'log.decorate',
  'log.showsignature',
  'status.short',
  'status.branch',
  'status.showuntrackedfiles',
  'column.ui',
  'i18n.commitencoding',
  'i18n.logoutputencoding',
  'gc.auto',
]);
const SAFE_CONFIG_SECTIONS = ['advice.', 'color.'];

/** Subcommands whose arguments cannot turn them dangerous, so run-time values (`"$msg"`) are fine. */
const DYNAMIC_SAFE_SUBCOMMANDS = new Set([
  'add',
  'commit',
  'status',
  'rev-parse',
  'ls-files',
  'check-ignore',
  'blame',
  'merge-base',
  'cat-file',
  'show-ref',
]);

/** Subcommands agents never need and that run programs, publish, rewrite history or reveal secrets. */
const FORBIDDEN_SUBCOMMANDS: Record<string, string> = {
  'filter-branch': 'runs arbitrary shell filters',
  'filter-repo': 'runs arbitrary filters',
  difftool: 'runs external diff programs',
  mergetool: 'runs external merge programs',
  'send-email': 'sends mail and can run a sendmail command',
  instaweb: 'starts a web server and a browser',
  daemon: 'serves the repository on the network',
  shell: 'is a restricted login shell',
  credential: 'reveals stored credentials',
  'credential-store': 'reveals stored credentials',
  'credential-cache': 'reveals stored credentials',
};

/**
 * Git's own subcommands. Anything else is an alias from git config or a `git-<name>` program found on PATH
 * (which an agent can create), so it is refused.
 */
const KNOWN_SUBCOMMANDS = new Set([
  'add',
  'am',
  'annotate',
  'apply',
  'archive',
  'bisect',
  'blame',
  'branch',
  'bundle',
  'cat-file',
  'check-attr',
  'check-ignore',
  'check-mailmap',
  'check-ref-format',
  'checkout',
  'cherry',
  'cherry-pick',
  'clean',
  'clone',
  'column',
  'commit',
  'commit-graph',
  'commit-tree',
  'config',
  'count-objects',
  'describe',
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'fetch',
  'for-each-ref',
  'for-each-repo',
  'format-patch',
  'fsck',
  'gc',
  'grep',
  'hash-object',
  'help',
  'hook',
  'init',
  'interpret-trailers',
  'lfs',
  'log',
  'ls-files',
  'ls-remote',
  'ls-tree',
  'maintenance',
  'merge',
  'merge-base',
  'merge-file',
  'merge-tree',
  'mktag',
  'mktree',
  'mv',
  'name-rev',
  'notes',
  'prune',
  'pull',
  'push',
  'range-diff',
  'read-tree',
  'rebase',
  'reflog',
  'remote',
  'repack',
  'replace',
  'request-pull',
  'rerere',
  'reset',
  'restore',
  'rev-list',
  'rev-parse',
  'revert',
  'rm',
  'shortlog',
  'show',
  'show-branch',
  'show-ref',
  'sparse-checkout',
  'stash',
  'status',
  'stripspace',
  'submodule',
  'switch',
  'symbolic-ref',
  'tag',
  'update-index',
  'update-ref',
  'var',
  'verify-commit',
  'verify-pack',
  'verify-tag',
  'version',
  'whatchanged',
  'worktree',
  'write-tree',
]);

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

export const inspectGit: CommandInspector = (invocation, context) => {
  const words = invocation.words;
  let i = 1;
  while (i < words.length && (words[i]!.value.startsWith('-') || words[i]!.dynamic)) {
    const word = words[i]!;
    if (word.dynamic) {
      context.report('danger', 'Blocked: a git global option is computed at run time');
      return;
    }
    const equals = word.value.indexOf('=');
    const name = word.value.startsWith('--') && equals !== -1 ? word.value.slice(0, equals) : word.value;
    const inlineValue = name !== word.value ? { ...word, value: word.value.slice(equals + 1) } : null;
    if (name === '--exec-path' && inlineValue) {
      context.report('danger', "Blocked: 'git --exec-path=…' makes git run programs from another directory");
      return;
    }
    if (GLOBAL_FLAGS.has(name) && !inlineValue) {
      i += 1;
      continue;
    }
    if (!GLOBAL_OPTIONS_WITH_VALUE.has(name)) {
      context.report('danger', `Blocked: unrecognised git global option '${displayValue(word.value)}'`);
      return;
    }
    const value = inlineValue ?? words[i + 1];
    i += inlineValue ? 1 : 2;
    if (!value) return;
    if (name === '-c' || name === '--config-env') {
      checkConfigSetting(value, `git ${name}`, context);
    } else if (name === '-C' || name === '--work-tree') {
      const problem = findProtectedPathInArgument(value, context.place);
      if (problem) context.report('danger', `Blocked: git ${name} refused: ${problem}`);
    }
  }
  const subcommandWord = words[i];
  if (!subcommandWord) return;
  if (subcommandWord.glob) {
    context.report('danger', `Blocked: the git subcommand '${subcommandWord.value}' is a glob pattern`);
    return;
  }
  const subcommand = subcommandWord.value;
  const args = words.slice(i + 1);
  if (args.some((word) => word.dynamic) && !DYNAMIC_SAFE_SUBCOMMANDS.has(subcommand)) {
    context.report(
      'danger',
      `Blocked: 'git ${displayValue(subcommand)}' has arguments computed at run time, which could turn it dangerous`,
    );
    return;
  }
  checkSubcommand(subcommand, args, invocation, context);
  checkProgramAndOutputOptions(subcommand, args, context);
};

function checkSubcommand(
  subcommand: string,
  args: readonly CommandWord[],
  invocation: Invocation,
  context: InspectionContext,
): void {
  const forbidden = FORBIDDEN_SUBCOMMANDS[subcommand];
  if (forbidden) {
    context.report('danger', `Blocked: 'git ${subcommand}' ${forbidden}`);
    return;
  }
  if (!KNOWN_SUBCOMMANDS.has(subcommand)) {
    context.report(
      'danger',
      `Blocked: 'git ${subcommand}' is not a git subcommand; it would run an alias or a git-${subcommand} program`,
    );
    return;
  }
  switch (subcommand) {
    case 'push':
      context.report(
        'danger',
        "Blocked: 'git push' is not allowed: agents never push; the control plane publishes revisions",
      );
      return;
    case 'reset':
      if (args.some((arg) => isLongOption(arg, 'hard')))
        context.report('danger', patternMessage(PATTERN.gitResetHard));
      return;
    case 'clean':
      if (args.some((arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force'))) {
        context.report('danger', patternMessage(PATTERN.gitCleanForce));
      }
      return;
    case 'checkout':
      if (args.some(isWholeTreePathspec)) context.report('danger', patternMessage(PATTERN.gitCheckoutDot));
      else if (args.some((arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force', 3))) {
        context.report('danger', "Blocked: 'git checkout --force' discards local changes");
      }
      return;
    case 'restore': {
      const staged = args.some((arg) => hasShortFlag(arg, 'S') || isLongOption(arg, 'staged', 2));
      const worktree = args.some((arg) => hasShortFlag(arg, 'W') || isLongOption(arg, 'worktree'));
      if (args.some(isWholeTreePathspec) && (!staged || worktree)) {
        context.report('danger', patternMessage(PATTERN.gitRestoreDot));
      }
      return;
    }
    case 'switch':
      if (
        args.some(
          (arg) =>
            hasShortFlag(arg, 'f') || isLongOption(arg, 'force') || isLongOption(arg, 'discard-changes'),
        )
      ) {
        context.report('danger', "Blocked: 'git switch --force' discards local changes");
      }
      return;
    case 'branch': {
      const forceDelete = args.some((arg) => hasShortFlag(arg, 'D'));
      const deletes = args.some((arg) => hasShortFlag(arg, 'd') || isLongOption(arg, 'delete', 3));
      const force = args.some((arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force', 3));
      if (forceDelete || (deletes && force))
        context.report('danger', patternMessage(PATTERN.gitBranchForceDelete));
      return;
    }
    case 'stash':
      if (args[0]?.value === 'clear')
        context.report('danger', "Blocked: 'git stash clear' destroys stashed work");
      return;
    case 'config':
      checkGitConfig(args, context);
      return;
    case 'rebase':
      checkRebaseExec(args, context);
      return;
    case 'bisect':
      if (args[0]?.value === 'run') runWrappedCommand(invocation, args.slice(1), context);
      return;
    case 'submodule': {
      const foreach = args.findIndex((arg) => arg.value === 'foreach');
      if (foreach !== -1) {
        const script = args.slice(foreach + 1).filter((arg) => !arg.value.startsWith('-'));
        context.checkSource(script.map((arg) => arg.value).join(' '), "the 'git submodule foreach' command");
      }
      return;
    }
    case 'grep':
      if (args.some((arg) => hasShortFlag(arg, 'O'))) {
        context.report('danger', "Blocked: 'git grep -O' runs a pager program on the results");
      }
      return;
    case 'clone':
      for (let k = 0; k < args.length; k += 1) {
        const arg = args[k]!;
        if (hasShortFlag(arg, 'u')) {
          context.report('danger', "Blocked: 'git clone -u' names a program for git to run");
        }
        if (arg.value === '-c' || arg.value === '--config') {
          if (args[k + 1]) checkConfigSetting(args[k + 1]!, 'git clone --config', context);
        } else if (arg.value.startsWith('--config=')) {
          checkConfigSetting(
            { ...arg, value: arg.value.slice('--config='.length) },
            'git clone --config',
            context,
          );
        }
      }
      return;
    default:
      return;
  }
}

function checkProgramAndOutputOptions(
  subcommand: string,
  args: readonly CommandWord[],
  context: InspectionContext,
): void {
  for (let k = 0; k < args.length; k += 1) {
    const arg = args[k]!;
    const value = arg.value;
    if (/^(ext|fd)::/.test(value) || value.includes('::ext::')) {
      context.report('danger', "Blocked: git 'ext::' and 'fd::' transports run commands");
    }
    const helper = /^([A-Za-z][A-Za-z0-9+.-]*)(::|:\/\/)/.exec(value);
    if (
      helper &&
      !/^(ext|fd)$/.test(helper[1]!) &&
      (helper[2] === '::' || !BUILT_IN_URL_SCHEMES.has(helper[1]!.toLowerCase()))
    ) {
      context.report(
        'danger',
        `Blocked: git URL scheme '${helper[1]}' runs a git-remote-${helper[1]} program`,
      );
    }
    // `-s` means --strategy for merge, pull and rebase (but --signoff for cherry-pick and revert).
    const shortStrategy = ['merge', 'pull', 'rebase'].includes(subcommand);
    const strategy =
      value === '--strategy' || (value === '-s' && shortStrategy)
        ? args[k + 1]?.value
        : (/^--strategy=(.+)$/.exec(value)?.[1] ?? (shortStrategy ? /^-s(.+)$/.exec(value)?.[1] : undefined));
    if (strategy !== undefined && ['merge', 'pull', 'rebase', 'cherry-pick', 'revert'].includes(subcommand)) {
      if (!MERGE_STRATEGIES.has(strategy)) {
        context.report(
          'danger',
          `Blocked: merge strategy '${strategy}' runs a git-merge-${strategy} program`,
        );
      }
    }
    for (const { option, applies } of PROGRAM_OPTIONS) {
      if (applies(subcommand) && isLongOption(arg, option, 3)) {
        context.report('danger', `Blocked: 'git ${subcommand} --${option}' names a program for git to run`);
      }
    }
    for (const option of OUTPUT_OPTIONS) {
      if (!isLongOption(arg, option, 3)) continue;
      const target = value.includes('=') ? arg : args[k + 1];
      const problem = target ? findProtectedPathInArgument(target, context.place) : null;
      if (problem) context.report('danger', `Blocked: 'git ${subcommand} --${option}' refused: ${problem}`);
    }
    if (value === '-o' && args[k + 1]) {
      const problem = findProtectedPathInArgument(args[k + 1]!, context.place);
      if (problem) context.report('danger', `Blocked: 'git ${subcommand} -o' refused: ${problem}`);
    }
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

const CONFIG_READ_FLAGS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
  '-l',
]);
const CONFIG_VALUE_OPTIONS = new Set([
  '--file',
  '-f',
  '--blob',
  '--type',
  '--default',
  '--comment',
  '--value',
]);

function checkGitConfig(args: readonly CommandWord[], context: InspectionContext): void {
  const operands: CommandWord[] = [];
  let read = false;
  let unset = false;
  for (let k = 0; k < args.length; k += 1) {
    const value = args[k]!.value;
    if (CONFIG_READ_FLAGS.has(value)) read = true;
    else if (value === '-e' || value === '--edit') {
      context.report('danger', "Blocked: 'git config --edit' opens an editor on git's configuration");
      return;
    } else if (value === '--rename-section') {
      context.report(
        'danger',
        "Blocked: 'git config --rename-section' can turn existing settings into aliases",
      );
      return;
    } else if (value === '--unset' || value === '--unset-all' || value === '--remove-section') unset = true;
    else if (CONFIG_VALUE_OPTIONS.has(value)) k += 1;
    else if (!value.startsWith('-')) operands.push(args[k]!);
  }
  const action = operands[0]?.value;
  if (action === 'get' || action === 'list') read = true;
  if (action === 'edit' || action === 'rename-section') {
    context.report('danger', `Blocked: 'git config ${action}' is not allowed`);
    return;
  }
  if (action === 'unset' || action === 'remove-section') unset = true;
  if (read || unset) return;
  const key = action === 'set' ? operands[1] : operands[0];
  if (key) checkConfigKey(key, 'git config', context);
}

/** Checks a `key=value` setting given to `git -c`, `--config-env` or `git clone --config`. */
function checkConfigSetting(setting: CommandWord, origin: string, context: InspectionContext): void {
  const equals = setting.value.indexOf('=');
  const key = equals === -1 ? setting.value : setting.value.slice(0, equals);
  checkConfigKey({ ...setting, value: key, dynamic: key.includes(DYNAMIC_MARK) }, origin, context);
}

function checkConfigKey(key: CommandWord, origin: string, context: InspectionContext): void {
  if (key.dynamic) {
    context.report('danger', `Blocked: ${origin} with a key computed at run time`);
    return;
  }
  const normalised = key.value.toLowerCase();
  if (
    SAFE_CONFIG_KEYS.has(normalised) ||
    SAFE_CONFIG_SECTIONS.some((section) => normalised.startsWith(section))
  ) {
    return;
  }
  context.report(
    'danger',
    `Blocked: ${origin} '${key.value}' is refused: only harmless settings (user.name, user.email, color.*, …) ` +
      'may be changed, because others (alias.*, core.sshCommand, core.pager, core.fsmonitor, …) run programs',
  );
}

function checkRebaseExec(args: readonly CommandWord[], context: InspectionContext): void {
  for (let k = 0; k < args.length; k += 1) {
    const arg = args[k]!;
    if (arg.value === '-x' || arg.value === '--exec') {
      const script = args[k + 1];
      if (script) context.checkSource(script.value, "the 'git rebase --exec' command");
      k += 1;
    } else if (arg.value.startsWith('--exec=')) {
      context.checkSource(arg.value.slice('--exec='.length), "the 'git rebase --exec' command");
    } else if (/^-x./.test(arg.value)) {
      context.checkSource(arg.value.slice(2), "the 'git rebase -x' command");
    }
  }
}

/** `--name`, or an unambiguous abbreviation of it (git's parse-options accepts those), with `=value`. */
function isLongOption(arg: CommandWord, name: string, minimumLength = 1): boolean {
  if (!arg.value.startsWith('--')) return false;
  const written = arg.value.slice(2).split('=')[0]!;
  return written.length >= Math.min(minimumLength, name.length) && name.startsWith(written);
}

/** A short-option cluster (`-xdf`) containing `letter`. */
function hasShortFlag(arg: CommandWord, letter: string): boolean {
  return /^-[a-zA-Z]+$/.test(arg.value) && arg.value.includes(letter);
}

/** Pathspecs that mean "everything": `.`, `./`, `..`, `*`, `:/`, `:(top)`… */
function isWholeTreePathspec(arg: CommandWord): boolean {
  const value = arg.value;
  if (value === '.' || value === './' || value === '..' || value === '../' || value === '*') return true;
  if (value.startsWith(':/') || value === ':' || value.startsWith(':(')) return true;
  return arg.glob && /^[*?[]/.test(value);
}
