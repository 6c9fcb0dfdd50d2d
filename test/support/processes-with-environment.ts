import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the processes on this machine with an environment variable (NAME=value) that starts with `prefix`. */
export function processesWithEnvironment(prefix: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/environ`, 'latin1')
          .split('\0')
          .some((variable) => variable.startsWith(prefix));
      } catch {
        return false; // ended meanwhile, or not ours to read
      }
    })
    .map(Number);
}
