import type { Command } from 'commander';

/** `flotilla work list`: the names from the program down to `command`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
}

/** Every command below `command`, depth first. */
export function listDescendants(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...listDescendants(sub)]);
}
