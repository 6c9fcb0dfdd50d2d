import { readFileSync } from 'node:fs';
import { availableParallelism, freemem, loadavg, totalmem } from 'node:os';

/** What the machine has now. */
export interface MachineLoad {
  /** Memory a new process can get without swapping (Linux: MemAvailable). */
  availableBytes: number;
  totalBytes: number;
  /** The one-minute load average, and the cores it is shared by. */
  load1: number;
  cpus: number;
}

/**
 * Linux: MemAvailable from /proc/meminfo — the kernel's own estimate of memory available to start new
 * work (free memory plus reclaimable caches), which MemFree understates. Elsewhere: Node's freemem().
 */
export function readMachineLoad(meminfoPath = '/proc/meminfo'): MachineLoad {
  let availableBytes = freemem();
  try {
    const match = /^MemAvailable:\s+(\d+)\s+kB$/m.exec(readFileSync(meminfoPath, 'latin1'));
    if (match !== null) availableBytes = Number(match[1]) * 1024;
  } catch {
    // Not Linux: freemem() it is.
  }
  return { availableBytes, totalBytes: totalmem(), load1: loadavg()[0] ?? 0, cpus: availableParallelism() };
}
