import type { FakeAgentRound, FakeAgentStep } from './cli-runtime/fake-agent-cli.ts';

interface ScenarioRoute {
  match?: { systemIncludes?: string; firstUserIncludes?: string | string[] };
  steps: {
    text?: string;
    content?: { type: string; name?: string; input?: Record<string, unknown> }[];
    structuredOutput?: Record<string, unknown>;
  }[];
}

const ROLE_TEXT = /You are the (planner|implementor|reviewer)/;

/**
 * A scripted model-server scenario for the Claude runtime (routes matched on the role and the prompt,
 * `Write` and `Bash` tool calls, the structured answer) as the fake agent CLI's script: one round per route,
 * chosen by the same prompt texts plus the role its signal instructions name, playing the same writes and
 * commands and ending with the answer as the signal. So the CLI runtime runs the very scenario the others do.
 */
export function buildFakeAgentScript(scenario: { routes: ScenarioRoute[] }): { rounds: FakeAgentRound[] } {
  return {
    rounds: scenario.routes.map((route) => {
      const role = ROLE_TEXT.exec(route.match?.systemIncludes ?? '')?.[1];
      if (role === undefined) throw new Error('each route must match its role ("You are the …")');
      const steps: FakeAgentStep[] = [];
      for (const step of route.steps) {
        if (step.text !== undefined) steps.push({ print: step.text });
        for (const block of step.content ?? []) {
          if (block.type !== 'tool_use') continue;
          const input = block.input ?? {};
          if (block.name === 'Write') {
            const path = String(input.file_path).replace(/^\{\{cwd\}\}\//, '');
            steps.push({ write: { path, content: String(input.content) } });
          } else if (block.name === 'Bash') {
            steps.push({ run: String(input.command) });
          } else {
            throw new Error(`no fake agent step for the tool ${block.name}`);
          }
        }
        if (step.structuredOutput !== undefined) {
          const { role: _role, ...result } = step.structuredOutput;
          steps.push({ signal: { status: 'done', result } });
        }
      }
      return {
        promptIncludes: [`<your ${role} result>`, ...[route.match?.firstUserIncludes ?? []].flat()],
        steps,
      };
    }),
  };
}
