import { InvalidArgumentError } from 'commander';

/** Commander argument parser for counts such as `--limit 20`; anything else is a usage error (exit 2). */
export function parsePositiveInteger(value: string): number {
  const parsed = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError('expected a positive integer, e.g. 20');
  }
  return parsed;
}
