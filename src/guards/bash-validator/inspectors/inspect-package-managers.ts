import { commandBaseName } from '../command-word.ts';
import { displayValue } from '../messages.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector, CommandWord, InspectionContext, Invocation } from '../types.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

/** Interpreters that run inline code (`-e`, `-c`, a script): a package runner must not start them. */
const INTERPRETERS = new Set([
  'node',
  'nodejs',
  'tsx',
  'ts-node',
  'deno',
  'bun',
  'zx',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'lua',
  'osascript',
]);

/**
 * Options of npm/npx/pnpm/yarn that choose a program (or an rc file naming one) to run instead of the usual
 * one. npm accepts unambiguous abbreviations (`--script-sh`), so prefixes are refused too.
 */
const PROGRAM_OPTIONS = [
  'script-shell',
  'shell',
  'node-options',
  'node-gyp',
  'editor',
  'git',
  'browser',
  'viewer',
  'userconfig',
  'globalconfig',
  'init-module',
  'onload-script',
];

/** Options that change the directory the package manager works in; they may not point at a protected path. */
const DIRECTORY_OPTIONS = new Set(['--prefix', '-C', '--dir', '--cwd']);

/** Subcommands that publish or change credentials: agents never do these (like `git push`). */
const PUBLISHING = new Set([
  'publish',
  'unpublish',
  'deprecate',
  'dist-tag',
  'owner',
  'access',
  'adduser',
  'add-user',
  'login',
  'logout',
  'token',
  'team',
  'org',
  'star',
  'unstar',
]);

const NPX_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '-w', '--workspace', '--prefix']);

export const inspectNpx: CommandInspector = (invocation, context) => {
  if (!checkCommonOptions(invocation, context)) return;
  runPackageRunner(invocation, invocation.words.slice(1), 'npx', context);
};

export const inspectNpm: CommandInspector = (invocation, context) => {
  if (!checkCommonOptions(invocation, context)) return;
  const args = invocation.words.slice(1);
  const index = args.findIndex((word) => !word.value.startsWith('-'));
  const subcommand = index === -1 ? null : args[index]!.value;
  if (subcommand === null) return;
  const rest = args.slice(index + 1);
  if (subcommand === 'exec' || subcommand === 'x') {
    runPackageRunner(invocation, rest, `npm ${subcommand}`, context);
  } else if (subcommand === 'explore' || subcommand === 'edit') {
    context.report('danger', `Blocked: 'npm ${subcommand}' opens a shell or an editor`);
  } else if ((subcommand === 'config' || subcommand === 'c') && isConfigWrite(rest)) {
    context.report('danger', `Blocked: 'npm config ${rest[0]?.value}' changes how npm runs scripts`);
  } else if (subcommand === 'set') {
    context.report('danger', "Blocked: 'npm set' changes how npm runs scripts");
  } else if (PUBLISHING.has(subcommand)) {
    context.report(
      'danger',
      `Blocked: 'npm ${subcommand}' publishes or changes credentials; agents never do this`,
    );
  }
};

const PNPM_SUBCOMMANDS = new Set([
  'add',
  'install',
  'i',
  'remove',
  'rm',
  'un',
  'uninstall',
  'update',
  'up',
  'upgrade',
  'run',
  'run-script',
  'test',
  't',
  'tst',
  'start',
  'create',
  'init',
  'list',
  'ls',
  'll',
  'la',
  'outdated',
  'why',
  'audit',
  'link',
  'ln',
  'unlink',
  'prune',
  'pack',
  'store',
  'env',
  'licenses',
  'rebuild',
  'rb',
  'fetch',
  'import',
  'deploy',
  'recursive',
  'root',
  'bin',
  'dedupe',
  'patch',
  'patch-commit',
  'install-test',
  'it',
  'help',
  'doctor',
  'server',
  'setup',
  'self-update',
]);

export const inspectPnpm: CommandInspector = (invocation, context) => {
  if (!checkCommonOptions(invocation, context)) return;
  const args = invocation.words.slice(1);
  const index = skipOptions(args, new Set(['-C', '--dir', '--filter', '-F', '--workspace-root', '-w']));
  const subcommandWord = args[index];
  if (!subcommandWord) return;
  const subcommand = subcommandWord.value;
  const rest = args.slice(index + 1);
  if (subcommand === 'exec' || subcommand === 'dlx') {
    runPackageRunner(invocation, rest, `pnpm ${subcommand}`, context);
  } else if (subcommand === 'config' || subcommand === 'c') {
    if (isConfigWrite(rest))
      context.report('danger', `Blocked: 'pnpm config ${rest[0]?.value}' changes pnpm settings`);
  } else if (PUBLISHING.has(subcommand)) {
    context.report(
      'danger',
      `Blocked: 'pnpm ${subcommand}' publishes or changes credentials; agents never do this`,
    );
  } else if (!PNPM_SUBCOMMANDS.has(subcommand)) {
    // `pnpm <name>` runs a package script or, failing that, a binary: check it like `pnpm exec <name>`.
    runPackageRunner(invocation, args.slice(index), 'pnpm', context);
  }
};

const YARN_SUBCOMMANDS = new Set([
  'add',
  'install',
  'remove',
  'up',
  'upgrade',
  'update',
  'run',
  'test',
  'start',
  'build',
  'init',
  'info',
  'list',
  'why',
  'outdated',
  'audit',
  'link',
  'unlink',
  'pack',
  'cache',
  'workspace',
  'workspaces',
  'version',
  'versions',
  'constraints',
  'dedupe',
  'explain',
  'rebuild',
  'bin',
  'help',
  'check',
  'autoclean',
  'generate-lock-entry',
  'import',
  'licenses',
  'plugin',
  'set',
  'tag',
]);

export const inspectYarn: CommandInspector = (invocation, context) => {
  if (!checkCommonOptions(invocation, context)) return;
  const args = invocation.words.slice(1);
  const index = skipOptions(args, new Set(['--cwd']));
  const subcommandWord = args[index];
  if (!subcommandWord) return;
  const subcommand = subcommandWord.value;
  const rest = args.slice(index + 1);
  if (subcommand === 'dlx') {
    runPackageRunner(invocation, rest, 'yarn dlx', context);
  } else if (subcommand === 'exec') {
    // `yarn exec` runs its arguments as a shell command line.
    context.checkSource(rest.map((word) => word.value).join(' '), "the 'yarn exec' command");
  } else if (subcommand === 'node') {
    context.report('danger', "Blocked: 'yarn node' runs arbitrary JavaScript");
  } else if (subcommand === 'config') {
    if (isConfigWrite(rest))
      context.report('danger', `Blocked: 'yarn config ${rest[0]?.value}' changes yarn settings`);
  } else if (subcommand === 'npm' && rest[0] && PUBLISHING.has(rest[0].value)) {
    context.report('danger', `Blocked: 'yarn npm ${rest[0].value}' publishes or changes credentials`);
  } else if (PUBLISHING.has(subcommand)) {
    context.report(
      'danger',
      `Blocked: 'yarn ${subcommand}' publishes or changes credentials; agents never do this`,
    );
  } else if (subcommand === 'run') {
    runPackageRunner(invocation, rest, 'yarn run', context);
  } else if (!YARN_SUBCOMMANDS.has(subcommand) && subcommand !== 'npm') {
    runPackageRunner(invocation, args.slice(index), 'yarn', context);
  }
};

/** Blocks options that replace the program npm/pnpm/yarn run, and run-time values. Returns false if blocked. */
function checkCommonOptions(invocation: Invocation, context: InspectionContext): boolean {
  const name = commandBaseName(invocation.words[0]!.value);
  const args = invocation.words.slice(1);
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.value === '--') break;
    if (word.dynamic) {
      context.report(
        'danger',
        `Blocked: '${name}' argument '${displayValue(word.value)}' is computed at run time and could change what runs`,
      );
      return false;
    }
    const option = word.value.split('=')[0]!;
    const written = option.startsWith('--') ? option.slice(2) : '';
    if (
      written.startsWith('config.') ||
      (written.length >= 2 && PROGRAM_OPTIONS.some((program) => program.startsWith(written)))
    ) {
      context.report('danger', `Blocked: '${name} ${option}' changes the program ${name} runs`);
      return false;
    }
    if (DIRECTORY_OPTIONS.has(option)) {
      const directory =
        option === word.value ? args[i + 1] : { ...word, value: word.value.slice(option.length + 1) };
      const problem = directory ? findProtectedPathInArgument(directory, context.place) : null;
      if (problem) {
        context.report('danger', `Blocked: '${name} ${option}' refused: ${problem}`);
        return false;
      }
    }
  }
  return true;
}

/**
 * Checks the command a package runner executes against the blocklist and the structural rules, without the
 * allowlist (`npx vitest run` passes; `npx rm -rf x` does not). `-c`/`--call`/`--shell-mode` scripts are
 * validated as shell source; interpreters (`npx node -e …`) are blocked.
 */
function runPackageRunner(
  invocation: Invocation,
  args: readonly CommandWord[],
  runner: string,
  context: InspectionContext,
): void {
  const options = readRunnerOptions(args, runner, context);
  if (options === null) return;
  const command = args.slice(options.commandAt);
  if (command.length === 0) return;
  if (options.shellMode) {
    context.checkSource(command.map((word) => word.value).join(' '), `the '${runner} --shell-mode' command`);
    return;
  }
  const targetWord = command[0]!;
  if (targetWord.dynamic || targetWord.glob) {
    context.report('danger', `Blocked: the package '${runner}' runs is computed at run time`);
    return;
  }
  if (targetWord.value.includes('/') && !/^@[^/]+\/[^/]+$/.test(targetWord.value)) {
    context.report(
      'danger',
      `Blocked: '${runner} ${targetWord.value}' runs a local path, not a package binary`,
    );
    return;
  }
  const target = packageBinaryName(targetWord.value);
  if (INTERPRETERS.has(target)) {
    context.report(
      'danger',
      `Blocked: '${runner} ${target}' runs an interpreter that executes arbitrary code`,
    );
    return;
  }
  runWrappedCommand(
    invocation,
    [{ ...targetWord, value: target, masked: target }, ...command.slice(1)],
    context,
    {
      exempt: true,
    },
  );
}

/**
 * The runner's own options: where the command starts and whether pnpm's shell mode is on; null when a
 * `-c`/`--call` script was given (checked here as shell source: nothing else to run).
 */
function readRunnerOptions(
  args: readonly CommandWord[],
  runner: string,
  context: InspectionContext,
): { commandAt: number; shellMode: boolean } | null {
  let index = 0;
  let shellMode = false;
  for (; index < args.length; index += 1) {
    const value = args[index]!.value;
    if (value === '--') {
      index += 1;
      break;
    }
    if (!value.startsWith('-')) break;
    if (value === '-c' || value === '--call' || value === '--shell-mode') {
      if (runner.startsWith('pnpm') && value !== '--call') {
        shellMode = true;
        continue;
      }
      const script = args[index + 1];
      if (script) context.checkSource(script.value, `the '${runner} ${value}' command`);
      return null;
    }
    if (value.startsWith('--call=')) {
      context.checkSource(value.slice('--call='.length), `the '${runner} --call' command`);
      return null;
    }
    if (NPX_VALUE_OPTIONS.has(value)) index += 1;
  }
  return { commandAt: index, shellMode };
}

/** `@scope/name@1.2.3` → `name`; `name@latest` → `name`. */
function packageBinaryName(spec: string): string {
  const withoutScope = spec.startsWith('@') ? spec.slice(spec.indexOf('/') + 1) : spec;
  const at = withoutScope.indexOf('@');
  return commandBaseName(at > 0 ? withoutScope.slice(0, at) : withoutScope);
}

function skipOptions(args: readonly CommandWord[], withValue: ReadonlySet<string>): number {
  let index = 0;
  while (index < args.length && args[index]!.value.startsWith('-')) {
    index += withValue.has(args[index]!.value) ? 2 : 1;
  }
  return index;
}

function isConfigWrite(args: readonly CommandWord[]): boolean {
  const action = args.find((word) => !word.value.startsWith('-'))?.value;
  return action !== undefined && !['get', 'list', 'ls'].includes(action);
}
