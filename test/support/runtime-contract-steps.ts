import type { ContentBlockSpec, StepSpec } from '../../src/model-server/scenario-schema.ts';
import type { Scenario, Step } from '../../src/model-server/scenario-types.ts';
import {
  type AgentScript,
  type AgentToolCall,
  agentCommandLine,
  conversationCommandLine,
  waitForFileLine,
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
): Step[] {
  const notes = script.notes ?? [];
  const viaShell = noteTool === undefined && notes.length > 0;
  const converses = script.converses;
  // Agents that run commands converse through `flotilla agent`; Claude's through its MCP tools (below).
  const conversing =
    converses !== undefined && noteTool === undefined ? conversationCommandLine(converses) : undefined;
  const prefix = [viaShell ? agentCommandLine(notes) : undefined, conversing].filter(
    (part): part is string => part !== undefined,
  );
  const shell = prefix.length > 0 ? `${prefix.join('; ')}; ${script.shell ?? 'true'}` : script.shell;
  if (converses !== undefined && noteTool !== undefined) {
    const mcp = (tool: string, input: Record<string, unknown>): ContentBlockSpec => ({
      type: 'tool_use',
      name: `mcp__flotilla__${tool}`,
      input,
    });
    const steps: Step[] = [];
    // The question reaches the agent in its session while this command runs (pushed as a user message).
    if (converses.waits !== undefined)
      steps.push({ content: [shellTool(waitForFileLine(converses.waits.readyFile))] });
    if (converses.holds !== undefined)
      steps.push({ content: [shellTool(waitForFileLine(converses.holds.releaseFile))] });
    const { asks } = converses;
    if (asks !== undefined)
      steps.push({
        content: [
          mcp('ask_agent', { to: asks.to, question: asks.question, timeoutSeconds: asks.timeoutSeconds }),
        ],
      });
    if (converses.answers !== undefined) {
      const answer = converses.answers;
      steps.push({
        ...(asks !== undefined && { expect: { lastToolResultIncludes: asks.expect } }),
        // The conversation id comes with the question the session was given.
        respond: (request) => {
          const id = /conversation (c-[a-z0-9-]+)/.exec(request.messagesText)?.[1] ?? 'missing';
          return { content: [mcp('answer_agent', { conversationId: id, answer })] };
        },
      });
    }
    const write = asks === undefined ? undefined : `printf '%s\n' '${asks.expect}' > ${asks.replyFile}`;
    const expectResult =
      converses.answers !== undefined ? 'ok: answer sent' : asks !== undefined ? asks.expect : undefined;
    steps.push({
      ...(expectResult !== undefined && { expect: { lastToolResultIncludes: expectResult } }),
      content: [shellTool([write, script.shell].filter(Boolean).join('; ') || 'true')],
    });
    return [...steps, ...Array.from({ length: 8 }, () => ({ structuredOutput: script.output }))];
  }
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
export function buildContractScenario(script: AgentScript, steps: Step[]): Scenario {
  return {
    name: 'contract',
    ...((script.asks !== undefined || script.converses !== undefined) && {
      onUnmetExpectation: 'reject' as const,
    }),
    routes: [{ name: 'any', steps }],
  };
}
