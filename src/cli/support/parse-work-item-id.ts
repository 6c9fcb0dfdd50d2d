import { CliError } from './cli-error.ts';

/** Accepts `12` or `#12`; anything else is a usage error (exit 2). */
export function parseWorkItemID(value: string, what = 'work item id'): string {
  const id = value.startsWith('#') ? value.slice(1) : value;
  if (/^r[1-9][0-9]{0,15}$/i.test(value) || /^PR ?#?[1-9][0-9]{0,15}$/i.test(value)) {
    throw new CliError(
      `"${value}" names a revision; expected the ${what}: the item it belongs to (\`flotilla work list\` shows each item's revision)`,
      { exitCode: 2 },
    );
  }
  if (!/^[1-9][0-9]{0,15}$/.test(id)) {
    throw new CliError(`"${value}" is not a ${what}; expected a positive integer such as 12 (or #12)`, {
      exitCode: 2,
    });
  }
  return id;
}
