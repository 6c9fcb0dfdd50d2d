import { readdirSync, readFileSync } from 'node:fs';

/** The variable whose `--setenv` in every bwrap invocation marks it (its value: the invocation's id). */
export const SANDBOX_ID_VARIABLE = 'FLOTILLA_SANDBOX_ID';

/** How many times the process table is scanned again after a kill, at most. */
const MAX_SCANS = 20;

/**
 * Ends what is left of one sandbox after its bwrap exited: the sandbox's init (bwrap's child, PID 1 of the
 * namespace) survives a kill of bwrap that lands before the child has asked to die with its parent
 * (`--die-with-parent` is a `PR_SET_PDEATHSIG` the child sets itself) — and `--new-session` has taken it out
 * of the process group Flotilla kills. bwrap's child is a fork, so its command line is bwrap's, with this
 * invocation's id: every process carrying it is killed (with PID 1 the whole namespace goes), and the table
 * is scanned again until none is left. Linux only (the sandbox is); returns how many were killed.
 */
export async function endStraySandboxes(id: string): Promise<number> {
  const needle = `\0${SANDBOX_ID_VARIABLE}\0${id}\0`;
  let killed = 0;
  for (let scan = 0; scan < MAX_SCANS; scan += 1) {
    const pids = findByCommandLine(needle);
    if (pids.length === 0) return killed;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      } catch {
        // It ended just now.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return killed;
}

/** bwrap processes (by `comm`) whose command line holds `needle`. */
function findByCommandLine(needle: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      // `comm` first: reading a command line takes the process's memory lock, slow on a busy machine.
      if (readFileSync(`/proc/${entry}/comm`, 'latin1') !== 'bwrap\n') continue;
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
    } catch {
      continue; // It ended just now.
    }
    // A zombie's command line is empty: it is gone but for its parent's wait.
    if (`\0${cmdline}`.includes(needle)) found.push(Number(entry));
  }
  return found;
}
