import { AgentRunFailure } from '../../engine/runtime-contract/index.ts';

/** Where a run's sandbox notes go: its transcript. */
export interface SandboxRefusalSink {
  note(text: string): void;
}

/** How many refusals a failure reason names before it says "and N more". */
const NAMED_IN_FAILURE = 5;

/**
 * What the OS sandbox refused during one run, made loud (issue #25: a refusal must never end as "changed
 * nothing"): each refused connection is noted in the run's transcript as it happens, lines in which bwrap or
 * the in-sandbox forwarder said why the sandbox could not start are kept, and `explain` adds both to the
 * run's failure reason. A run that succeeds keeps only the transcript notes.
 */
export function createSandboxRefusals(sink: SandboxRefusalSink) {
  const refused: string[] = [];
  const problems: string[] = [];
  return {
    /** For the sandbox request: a connection the sandbox's proxy refused. */
    onNetworkRefused(target: string): void {
      refused.push(target);
      sink.note(
        `the OS sandbox refused a connection to ${target}: not in the agent's network allow-list (sandbox.network.allow)`,
      );
    },
    /**
     * An output line of the sandboxed process; one in which bwrap or Flotilla's forwarder says why the
     * sandbox failed (`bwrap: …`, `flotilla sandbox: …`) is kept for the failure reason. The line comes from
     * the sandbox's stderr, which the agent can write too: it is quoted, never acted on.
     */
    line(line: string): void {
      if (/^(bwrap|flotilla sandbox): /.test(line) && problems.length < NAMED_IN_FAILURE)
        problems.push(line.slice(0, 300));
    },
    /** What was refused, in order. */
    refused: (): readonly string[] => refused,
    /** The failure with what the sandbox refused or said appended; the same failure when nothing was. */
    explain(failure: AgentRunFailure): AgentRunFailure {
      const parts: string[] = [];
      if (problems.length > 0)
        parts.push(`the OS sandbox reported: ${problems.map((p) => `"${p}"`).join('; ')}`);
      if (refused.length > 0) {
        const unique = [...new Set(refused)];
        const named = unique.slice(0, NAMED_IN_FAILURE).join(', ');
        const more = unique.length > NAMED_IN_FAILURE ? ` and ${unique.length - NAMED_IN_FAILURE} more` : '';
        parts.push(
          `the OS sandbox refused ${refused.length} connection(s) to ${named}${more} (not in sandbox.network.allow)`,
        );
      }
      if (parts.length === 0) return failure;
      return new AgentRunFailure(failure.reason, `${failure.message} — ${parts.join('; ')}`, {
        cause: failure,
        resetsAt: failure.resetsAt,
      });
    },
  };
}

export type SandboxRefusals = ReturnType<typeof createSandboxRefusals>;
