import { type Command, CommanderError } from 'commander';

/**
 * Makes an unknown (sub)command a one-line usage error (exit 2) naming the closest command and `--help`,
 * instead of Commander's error followed by the whole help text. Applies to `program` and to every command
 * below it that has subcommands; call it after all commands are registered.
 */
export function reportUnknownCommands(program: Command): void {
  for (const command of [program, ...descendants(program)]) {
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

/** Levenshtein distance with adjacent transpositions counted as one edit (`wrok` → `work`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      const previous = rows[i - 1]!;
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

function descendants(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...descendants(sub)]);
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
}
