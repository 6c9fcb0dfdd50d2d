import { DYNAMIC_MARK } from '../command-word.ts';
import type { CommandWord, InspectionContext } from '../types.ts';

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

/**
 * `git config`: reading, unsetting and removing are fine; `--edit` and `--rename-section` are refused, and
 * only the harmless keys may be set.
 */
export function checkGitConfig(args: readonly CommandWord[], context: InspectionContext): void {
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
export function checkConfigSetting(setting: CommandWord, origin: string, context: InspectionContext): void {
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
