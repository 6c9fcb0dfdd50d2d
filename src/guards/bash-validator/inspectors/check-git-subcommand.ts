import { PATTERN } from '../default-bash-validator-rules.ts';
import { patternMessage } from '../messages.ts';
import type { CommandWord, InspectionContext, Invocation } from '../types.ts';
import { checkConfigSetting, checkGitConfig } from './check-git-config.ts';
import { hasShortFlag, isLongOption, isWholeTreePathspec } from './git-option-words.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

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

/**
 * What each subcommand may not do: forbidden and unknown subcommands (aliases, `git-<name>` programs),
 * pushing, discarding work, and the subcommands that run a program or a script.
 */
export function checkSubcommand(
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
  if (subcommand === 'push') {
    context.report(
      'danger',
      "Blocked: 'git push' is not allowed: agents never push; the control plane publishes revisions",
    );
    return;
  }
  const problem = findDiscardedWork(subcommand, args);
  if (problem !== null) context.report('danger', problem);
  checkProgramRunningSubcommand(subcommand, args, invocation, context);
}

/** Why the subcommand would throw work away (`reset --hard`, `clean -f`, `checkout .`…); null when it would not. */
function findDiscardedWork(subcommand: string, args: readonly CommandWord[]): string | null {
  const any = (test: (arg: CommandWord) => boolean) => args.some(test);
  switch (subcommand) {
    case 'reset':
      return any((arg) => isLongOption(arg, 'hard')) ? patternMessage(PATTERN.gitResetHard) : null;
    case 'clean':
      return any((arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force'))
        ? patternMessage(PATTERN.gitCleanForce)
        : null;
    case 'checkout':
      if (any(isWholeTreePathspec)) return patternMessage(PATTERN.gitCheckoutDot);
      return any((arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force', 3))
        ? "Blocked: 'git checkout --force' discards local changes"
        : null;
    case 'restore': {
      const staged = any((arg) => hasShortFlag(arg, 'S') || isLongOption(arg, 'staged', 2));
      const worktree = any((arg) => hasShortFlag(arg, 'W') || isLongOption(arg, 'worktree'));
      return any(isWholeTreePathspec) && (!staged || worktree) ? patternMessage(PATTERN.gitRestoreDot) : null;
    }
    case 'switch':
      return any(
        (arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force') || isLongOption(arg, 'discard-changes'),
      )
        ? "Blocked: 'git switch --force' discards local changes"
        : null;
    case 'branch': {
      const forceDelete = any((arg) => hasShortFlag(arg, 'D'));
      const deletes = any((arg) => hasShortFlag(arg, 'd') || isLongOption(arg, 'delete', 3));
      const force = any((arg) => hasShortFlag(arg, 'f') || isLongOption(arg, 'force', 3));
      return forceDelete || (deletes && force) ? patternMessage(PATTERN.gitBranchForceDelete) : null;
    }
    case 'stash':
      return args[0]?.value === 'clear' ? "Blocked: 'git stash clear' destroys stashed work" : null;
    default:
      return null;
  }
}

/** Subcommands that can run a program or a script: config, rebase --exec, bisect run, submodule foreach… */
function checkProgramRunningSubcommand(
  subcommand: string,
  args: readonly CommandWord[],
  invocation: Invocation,
  context: InspectionContext,
): void {
  switch (subcommand) {
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
      checkClone(args, context);
      return;
  }
}

/** `git clone -u` names a program; its `--config` settings are checked like `git -c`. */
function checkClone(args: readonly CommandWord[], context: InspectionContext): void {
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
}

/** `git rebase --exec`/`-x`: its command is checked as shell source. */
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
