import type { ContentBlockSpec, ScenarioSpec, StepSpec } from '../../src/model-server/scenario-schema.ts';
import {
  type AgentScript,
  type AgentToolCall,
  agentCommandLine,
} from './runtime-contract/runtime-contract-suite.ts';

/**
 * A contract script as scripted model steps: one turn that says `say` and runs `shell` with the runtime's
 * shell tool (`Bash` for Claude, `exec_command` for codex), then the structured answer — repeated for a
 * runtime that asks again after invalid output — or, for `hang`, a reply that never comes in time. With
 * `asks`: after `shell`, the `ask` step (default: `outcome: 'questions'` in the structured output); the
 * resumed session's first request must carry the answer, then `thenShell` runs and the answer follows.
 */
export function buildContractSteps(
  script: AgentScript,
  shellTool: (command: string) => ContentBlockSpec,
  ask: (questions: string[]) => StepSpec = (questions) => ({
    structuredOutput: { role: 'implementor', outcome: 'questions', questions },
  }),
  /** Flotilla's tools as the runtime's own tool calls (Claude's MCP tools); absent: `flotilla agent` commands. */
  noteTool?: (call: AgentToolCall) => ContentBlockSpec,
): StepSpec[] {
  const notes = script.notes ?? [];
  const viaShell = noteTool === undefined && notes.length > 0;
  const shell = viaShell ? `${agentCommandLine(notes)}; ${script.shell ?? 'true'}` : script.shell;
  // What the agent says goes with a tool call: a reply of text alone would end a codex turn there.
  const content: ContentBlockSpec[] = [
    ...(script.say !== undefined ? [{ type: 'text' as const, text: script.say }] : []),
    ...(noteTool === undefined ? [] : notes.map(noteTool)),
    ...(shell !== undefined || script.say !== undefined ? [shellTool(shell ?? 'true')] : []),
  ];
  const first: StepSpec[] = content.length > 0 ? [{ content }] : [];
  if (script.hang) return [...first, { delayMs: 120_000, text: 'never reached' }];
  const asking: StepSpec[] =
    script.asks === undefined
      ? []
      : [
          ask(script.asks.questions),
          {
            expect: { lastUserIncludes: script.asks.answer },
            content: [shellTool(script.asks.thenShell)],
          },
        ];
  return [...first, ...asking, ...Array.from({ length: 8 }, () => ({ structuredOutput: script.output }))];
}

/**
 * The contract scenario: one route for every request. An asking script's server refuses a request whose
 * expectations are unmet (the resumed session without the answer fails); the others only record them, so
 * output that breaks the schema still reaches the runtime.
 */
export function buildContractScenario(script: AgentScript, steps: StepSpec[]): ScenarioSpec {
  return {
    name: 'contract',
    ...(script.asks !== undefined && { onUnmetExpectation: 'reject' as const }),
    routes: [{ name: 'any', steps }],
  };
}
