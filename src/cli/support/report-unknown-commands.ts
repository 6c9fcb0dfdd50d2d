import { type Command, CommanderError } from 'commander';
import { editDistance } from '../../shared/edit-distance.ts';
import { commandPath, listDescendants } from './command-path.ts';

/**
 * Makes an unknown (sub)command a one-line usage error (exit 2) naming the closest command and `--help`,
 * instead of Commander's error followed by the whole help text. Applies to `program` and to every command
 * below it that has subcommands; call it after all commands are registered.
 */
export function reportUnknownCommands(program: Command): void {
  for (const command of [program, ...listDescendants(program)]) {
    if (command.commands.length === 0) continue;
    command.on('command:*', (operands: string[]) => {
      const name = operands[0] ?? '';
      const path = commandPath(command);
      const closest = closestCommandName(
        name,
        command.commands.map((sub) => sub.name()),
      );
      const hint = closest === null ? '' : ` did you mean '${path} ${closest}'?`;
      const message = `${path}: unknown command '${name}';${hint} see '${path} --help'`;
      process.stderr.write(`${message}\n`);
      throw new CommanderError(2, 'flotilla.unknownCommand', message);
    });
  }
}

/**
 * The candidate nearest to `name` by edit distance (a prefix counts as near), or null when none is close
 * enough to be a plausible typo.
 */
export function closestCommandName(name: string, candidates: readonly string[]): string | null {
  const typed = name.toLowerCase();
  let best: { candidate: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const edits = editDistance(typed, candidate);
    const distance = candidate.startsWith(typed) && typed.length >= 2 ? Math.min(edits, 1) : edits;
    if (best === null || distance < best.distance) best = { candidate, distance };
  }
  if (best === null) return null;
  return best.distance <= Math.max(2, Math.floor(best.candidate.length / 3)) ? best.candidate : null;
}
