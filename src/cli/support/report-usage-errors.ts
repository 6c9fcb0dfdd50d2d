import type { Command } from 'commander';
import { commandPath, listDescendants } from './command-path.ts';

/**
 * Makes every usage error Commander reports (a missing argument, an unknown option, an invalid value) one
 * line in the form of Flotilla's other errors — `flotilla merge: missing required argument 'id'; see
 * 'flotilla merge --help'` — instead of `error: …` followed by the whole help text. Call it after all
 * commands are registered.
 */
export function reportUsageErrors(program: Command): void {
  for (const command of [program, ...listDescendants(program)]) {
    const path = commandPath(command);
    command.configureOutput({
      outputError: (text, write) => {
        const message = text.trim().replace(/^error: /, '');
        write(`${path}: ${message}; see '${path} --help'\n`);
      },
    });
  }
}
