/**
 * Environment variables that make an allowed command run something else: the loader (LD_PRELOAD), the
 * shell (BASH_ENV, PATH), git (GIT_SSH_COMMAND, GIT_CONFIG_*), package managers (npm_config_script_shell,
 * YARN_YARN_PATH), pagers and editors, interpreters' startup hooks, and where config is read from (HOME,
 * XDG_CONFIG_HOME). Setting one, for a command or for the rest of the script, is blocked.
 */
const DANGEROUS_NAMES = new Set([
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'ZDOTDIR',
  'BASH_ENV',
  'ENV',
  'SHELL',
  'SHELLOPTS',
  'BASHOPTS',
  'PROMPT_COMMAND',
  'PS0',
  'PS1',
  'PS4',
  'GLOBIGNORE',
  'BASH_CMDS',
  'BASH_ALIASES',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE',
  'NODE_OPTIONS',
  'PERL5OPT',
  'PERL5LIB',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'RUBYOPT',
  'RUBYLIB',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_ASKPASS',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PAGER',
  'GIT_EXTERNAL_DIFF',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'GIT_CONFIG',
  'GIT_PROXY_COMMAND',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_ALLOW_PROTOCOL',
  'GIT_PROTOCOL_FROM_USER',
  'TEXTDOMAIN',
  'TEXTDOMAINDIR',
]);

const DANGEROUS_PREFIXES = [
  'LD_',
  'DYLD_',
  'GIT_CONFIG_',
  'BASH_FUNC_',
  'npm_config_',
  'NPM_CONFIG_',
  'YARN_',
];

/** Names the validator refuses to let a command set (for `--print-rules`). */
export const DANGEROUS_VARIABLE_DESCRIPTION = [
  ...DANGEROUS_NAMES,
  ...DANGEROUS_PREFIXES.map((prefix) => `${prefix}*`),
];

/** Returns the block reason when assigning `name` is refused, else null. */
export function findDangerousVariable(name: string): string | null {
  if (DANGEROUS_NAMES.has(name) || DANGEROUS_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    return `Blocked: setting '${name}' can make an allowed command run something else`;
  }
  return null;
}
