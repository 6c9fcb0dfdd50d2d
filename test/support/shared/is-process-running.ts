import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a running process (Linux `/proc`). A zombie — killed, not yet reaped by its parent — counts
 * as gone: it runs nothing. The state follows the last `)` of the stat line (a command name may hold parens).
 */
export function isProcessRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== undefined && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
