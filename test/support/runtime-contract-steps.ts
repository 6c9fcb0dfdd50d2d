import type { ContentBlockSpec, StepSpec } from '../../src/model-server/scenario-schema.ts';
import type { AgentScript } from '../../src/runtimes/contract/runtime-contract-suite.ts';

/**
 * A contract script as scripted model steps: one turn that says `say` and runs `shell` with the runtime's
 * shell tool (`Bash` for Claude, `exec_command` for codex), then the structured answer — repeated for a
 * runtime that asks again after invalid output — or, for `hang`, a reply that never comes in time.
 */
export function buildContractSteps(
  script: AgentScript,
  shellTool: (command: string) => ContentBlockSpec,
): StepSpec[] {
  // What the agent says goes with a tool call: a reply of text alone would end a codex turn there.
  const content: ContentBlockSpec[] = [
    ...(script.say !== undefined ? [{ type: 'text' as const, text: script.say }] : []),
    ...(script.shell !== undefined || script.say !== undefined ? [shellTool(script.shell ?? 'true')] : []),
  ];
  const first: StepSpec[] = content.length > 0 ? [{ content }] : [];
  if (script.hang) return [...first, { delayMs: 120_000, text: 'never reached' }];
  return [...first, ...Array.from({ length: 8 }, () => ({ structuredOutput: script.output }))];
}
