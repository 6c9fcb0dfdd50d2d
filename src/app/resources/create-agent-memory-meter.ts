import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProcessesWithEnv } from '../../process/find-processes-with-env.ts';

/** How many finished runs' peaks each runtime's median is taken over. */
const WINDOW = 20;

/** One agent run as the meter last saw it: its processes' summed resident memory, now and at its peak. */
export interface MeteredRun {
  /** The runtime's state directory name (`claude`, `codex`, …: its descriptor's `stateDir`). */
  group: string;
  rssBytes: number;
  peakBytes: number;
}

export interface AgentMemoryMeter {
  /** Scans /proc now: each live run's memory; runs gone since the last scan give their peak to the median. */
  sample(): void;
  /** Runs seen in the last scan, by run directory. */
  liveRuns(): ReadonlyMap<string, MeteredRun>;
  /** The median peak of the group's last finished runs; null before the first one finished. */
  medianPeakBytes(group: string): number | null;
}

export interface AgentMemoryMeterOptions {
  /** `<stateDir>/<group>/runs/`: the runs directory of each runtime state group, by group name. */
  runsDirs: ReadonlyMap<string, string>;
  /** The marker variables whose value points into a run directory (CLAUDE_CONFIG_DIR, CODEX_HOME, …). */
  markerVariables: readonly string[];
  procDir?: string;
}

/**
 * What agents really take: every process carrying a run's marker variable (the agent, its tools, the
 * commands it runs — sandboxed ones too) is summed per run directory from /proc/<pid>/status (VmRSS), and a
 * run's highest sum is its peak. A rolling median of the peaks per runtime is what the resource gate
 * expects the next agent of that runtime to need. Linux only; elsewhere nothing is seen.
 */
export function createAgentMemoryMeter(options: AgentMemoryMeterOptions): AgentMemoryMeter {
  const procDir = options.procDir ?? '/proc';
  const prefixes = [...options.runsDirs].flatMap(([group, dir]) =>
    options.markerVariables.map((variable) => ({ group, prefix: `${variable}=${dir.replace(/\/?$/, '/')}` })),
  );
  let live = new Map<string, MeteredRun>();
  const peaks = new Map<string, number[]>();

  return {
    sample() {
      const next = new Map<string, MeteredRun>();
      const found = findProcessesWithEnv(
        (variable) => prefixes.some(({ prefix }) => variable.startsWith(prefix)),
        procDir,
      );
      for (const { pid, variable } of found) {
        const match = prefixes.find(({ prefix }) => variable.startsWith(prefix));
        if (match === undefined) continue;
        const runName = variable.slice(match.prefix.length).split('/')[0] ?? '';
        if (runName === '') continue;
        const key = `${match.group}/${runName}`;
        const rss = readResidentBytes(join(procDir, String(pid), 'status'));
        const run = next.get(key) ?? {
          group: match.group,
          rssBytes: 0,
          peakBytes: live.get(key)?.peakBytes ?? 0,
        };
        run.rssBytes += rss;
        next.set(key, run);
      }
      for (const run of next.values()) run.peakBytes = Math.max(run.peakBytes, run.rssBytes);
      for (const [key, run] of live) {
        if (next.has(key) || run.peakBytes === 0) continue;
        const window = peaks.get(run.group) ?? [];
        window.push(run.peakBytes);
        if (window.length > WINDOW) window.shift();
        peaks.set(run.group, window);
      }
      live = next;
    },
    liveRuns: () => live,
    medianPeakBytes(group) {
      const window = peaks.get(group);
      if (window === undefined || window.length === 0) return null;
      const sorted = [...window].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1
        ? (sorted[middle] ?? 0)
        : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
    },
  };
}

/** VmRSS of /proc/<pid>/status in bytes; 0 for a process gone or a kernel thread (no VmRSS line). */
function readResidentBytes(statusPath: string): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(statusPath, 'latin1'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}
