import { DANGEROUS_VARIABLE_DESCRIPTION } from './dangerous-variables.ts';
import { PROTECTED_FILE_NAMES, PROTECTED_PATH_SEGMENTS } from './protected-paths.ts';
import type { BashValidatorRules } from './types.ts';

/** The built-in structural rules, in words; they apply whatever the configuration says. */
export const STRUCTURAL_RULES: readonly string[] = [
  'Every simple command is checked wherever it appears: lists, pipelines, subshells, { … }, if/for/while/case ' +
    'bodies, function bodies, $(…), backticks, <(…), >(…), parameter expansions, arithmetic and heredocs.',
  "Command names are normalised (quotes, backslashes and $'…' decoded; /bin/rm → rm). A name computed at " +
    'run time ($X, $(…)) or a glob is blocked.',
  'bash/sh/dash/ash/zsh -c SCRIPT and static heredoc/here-string scripts fed to a shell are parsed and ' +
    'validated; a shell running a file or reading a pipe is blocked. The shell itself must still be allowed.',
  'Wrappers are seen through and the wrapped command validated with the full rules: env, command, builtin, ' +
    'exec, nohup, nice, timeout, time, stdbuf, xargs (input words count as run-time values), ' +
    'find -exec/-execdir/-ok/-okdir.',
  'Package runners (npx, npm exec, pnpm exec/dlx, yarn dlx, pnpm/yarn <bin>) are checked against the ' +
    'blocklist and structural rules but not the allowlist; interpreters (node, tsx, python, …), local paths ' +
    'and computed targets are blocked, as are npm/pnpm/yarn options that pick the program or rc file they ' +
    'run (--script-shell, --userconfig, --config.*, …) and --prefix/-C/--cwd into a protected path.',
  'Always blocked: rm, sudo, eval, source, ., trap, fc, kill, pkill, killall, chown, fdisk, mkfs*, dd if=, ' +
    "find -delete/-fprint*, git push (agents never push), awk system()/pipes/@-calls/file output, sed 'e' commands and " +
    "'s///e', rg --pre, sort --compress-program.",
  'git: reset --hard, clean -f, checkout ./--force, restore ., switch --force, branch -D/-d -f, stash clear, ' +
    '-c/--config-env/git config with any key outside a small safe list (alias.*, core.sshCommand, core.pager, ' +
    'core.fsmonitor, … are refused), --exec-path=, --upload-pack, --receive-pack, ext:: URLs, init/clone ' +
    "--template, filter-branch, difftool, mergetool, send-email, credential, subcommands that are not git's own " +
    '(aliases, git-<name> programs), non-built-in merge strategies and remote-helper URL schemes; ' +
    'rebase --exec and submodule ' +
    'foreach scripts are validated.',
  'chmod: -R and any mode that makes files writable by others (777, 666, o+w, a+w, a=rwx, …).',
  `Writes (redirections, cp, mv, tee, install, ln, rsync, sed -i, sed w, sort -o, uniq, git --output/-o/--work-tree) to protected paths are blocked: path segments ${PROTECTED_PATH_SEGMENTS.join(', ')}, .config/git, and files ${PROTECTED_FILE_NAMES.join(', ')}; a write target computed at run time is blocked.`,
  `Setting these variables (FOO=… cmd, env FOO=…, export, or for the rest of the script) is blocked: ${DANGEROUS_VARIABLE_DESCRIPTION.join(', ')}.`,
  'Arithmetic ($((…)), ((…)), let, [[ -eq ]], array subscripts) may only use variables set to integers in the ' +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: literal bash syntax, not a template.
    "same command; ${!x} and ${x@P} are blocked (a variable holding 'a[$(cmd)]' runs cmd).",
  'A glob argument starting with a glob character or a dash counts as a run-time value (it could expand to ' +
    'an option such as --hard); a glob git subcommand or chmod mode is blocked. NUL characters are blocked.',
  'Input that does not parse as bash, nests scripts more than 8 deep, or is longer than 100000 characters ' +
    'is blocked.',
];

export interface BashValidatorRulesDescription {
  allowedCommands: string[];
  blockPatterns: string[];
  structuralRules: readonly string[];
}

/** The effective rules as plain data, for `flotilla bash-check --print-rules`. */
export function describeBashValidatorRules(rules: BashValidatorRules): BashValidatorRulesDescription {
  return {
    allowedCommands: [...rules.allowedCommands],
    blockPatterns: rules.blockPatterns.map((pattern) => pattern.source),
    structuralRules: STRUCTURAL_RULES,
  };
}
