/** One runtime's side of the bench: the same one-step scenario, bare and through the runtime. */
export interface OverheadPair {
  bareLabel: string;
  runtimeLabel: string;
  bare(): Promise<void>;
  throughRuntime(): Promise<void>;
  close(): Promise<void>;
}

/** The one step every runtime is scripted to answer: an implementor with nothing to do. */
export const BLOCKED_OUTPUT = { role: 'implementor', outcome: 'blocked', summary: 'Nothing to do.' };

export const BENCH_PROMPT = '## Work Item #1 — Bench item\n\nDo nothing.\n';

export function implementorParams() {
  return {
    role: 'implementor' as const,
    sessionID: crypto.randomUUID(),
    prompt: BENCH_PROMPT,
    workItemID: '1',
    branchName: 'flotilla/1',
  };
}

/** Throws unless a run's result is the scripted blocked implementor. */
export function expectBlocked(result: { role?: string; outcome?: string }): void {
  if (result.role !== 'implementor' || result.outcome !== 'blocked')
    throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}
