import { readdirSync, readFileSync } from 'node:fs';

/** Peak figures of this process and of everything it started, sampled from /proc (Linux). */
export interface ProcessTreePeaks {
  /** Peak resident set of this process (the control plane), bytes. */
  selfRss: number;
  /** Peak of the summed resident sets of all descendants (agents, their tools, git, checks), bytes. */
  descendantsRss: number;
  /** Peak number of descendant processes alive at one sample. */
  descendants: number;
}

export interface ProcessTreeSampler {
  stop(): ProcessTreePeaks;
}

const PAGE_SIZE = 4096;

interface ProcEntry {
  ppid: number;
  rss: number;
}

function readProcEntry(pid: number): ProcEntry | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const rssPages = Number(fields[21]);
    return { ppid, rss: rssPages * PAGE_SIZE };
  } catch {
    return null; // the process ended between readdir and read
  }
}

function sampleDescendants(rootPid: number): { rss: number; count: number } {
  const entries = new Map<number, ProcEntry>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const entry = readProcEntry(pid);
    if (entry) entries.set(pid, entry);
  }
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of entries) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  let rss = 0;
  let count = 0;
  const stack = [...(children.get(rootPid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    rss += entries.get(pid)?.rss ?? 0;
    count += 1;
    stack.push(...(children.get(pid) ?? []));
  }
  return { rss, count };
}

/** Samples every `intervalMs` until stopped; /proc only, so elsewhere the descendant figures stay 0. */
export function createProcessTreeSampler(intervalMs = 250): ProcessTreeSampler {
  const peaks: ProcessTreePeaks = { selfRss: 0, descendantsRss: 0, descendants: 0 };
  const sample = () => {
    peaks.selfRss = Math.max(peaks.selfRss, process.memoryUsage.rss());
    if (process.platform !== 'linux') return;
    const { rss, count } = sampleDescendants(process.pid);
    peaks.descendantsRss = Math.max(peaks.descendantsRss, rss);
    peaks.descendants = Math.max(peaks.descendants, count);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}
