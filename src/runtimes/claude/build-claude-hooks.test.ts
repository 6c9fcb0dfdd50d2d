import type { HookCallback, HookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { buildClaudeHooks, GUARDED_TOOLS_MATCHER, STRUCTURED_OUTPUT_TOOL } from './build-claude-hooks.ts';

const ASK = 'mcp__flotilla__ask_human';

/** A hook that records the tools it saw and answers `answer`. */
function recordingHook(answer: object = {}) {
  const seen: string[] = [];
  const hook: HookCallback = async (input) => {
    if (input.hook_event_name === 'PreToolUse' || input.hook_event_name === 'PostToolUse')
      seen.push(input.tool_name);
    return answer;
  };
  return { hook, seen };
}

const preToolUse = (toolName: string) =>
  ({
    session_id: 's',
    transcript_path: '/t',
    cwd: '/w',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: {},
    tool_use_id: 'u',
  }) as HookInput;

function build(answers: { bash?: object; guard?: object } = {}) {
  const bash = recordingHook(answers.bash);
  const guard = recordingHook(answers.guard);
  const refuse = recordingHook({ decision: 'block', reason: 'subagent' });
  const stop = recordingHook({ continue: false });
  const hooks = buildClaudeHooks({
    bashValidator: bash.hook,
    pathGuard: guard.hook,
    askHumanTool: ASK,
    refuseSubagentAsking: refuse.hook,
    stopAfterAsking: stop.hook,
  });
  const pre = hooks.PreToolUse ?? [];
  const callGuards = (toolName: string) =>
    pre[0]!.hooks[0]!(preToolUse(toolName), 'u', { signal: new AbortController().signal });
  return { hooks, pre, callGuards, bash, guard, refuse, stop };
}

describe('GUARDED_TOOLS_MATCHER (read by the CLI as a JavaScript regular expression)', () => {
  const matcher = new RegExp(GUARDED_TOOLS_MATCHER);

  it('matches every tool name, today’s and unknown ones, but the structured output', () => {
    for (const tool of ['Write', 'Edit', 'Read', 'Bash', 'NotebookEdit', 'FutureFileTool', ASK, 'Agent'])
      expect(matcher.test(tool), tool).toBe(true);
    expect(matcher.test(STRUCTURED_OUTPUT_TOOL)).toBe(false);
  });

  it('does not let a tool whose name only starts or ends like the structured output slip past', () => {
    for (const tool of ['StructuredOutputWriter', 'mcp__x__StructuredOutput', 'StructuredOutput2'])
      expect(matcher.test(tool), tool).toBe(true);
  });

  it('has characters that make the CLI read it as a regular expression, not a list of exact names', () => {
    expect(GUARDED_TOOLS_MATCHER).toMatch(/[^\w|]/);
  });
});

describe('buildClaudeHooks', () => {
  it('registers one PreToolUse callback for the guarded tools and one PostToolUse for asking', () => {
    const { hooks } = build();
    expect(hooks.PreToolUse).toHaveLength(1);
    expect(hooks.PreToolUse?.[0]).toMatchObject({ matcher: GUARDED_TOOLS_MATCHER, onFailure: 'block' });
    expect(hooks.PreToolUse?.[0]?.hooks).toHaveLength(1);
    expect(hooks.PostToolUse).toEqual([{ matcher: ASK, hooks: [expect.any(Function)] }]);
  });

  it('sends a file tool to the path guard only, and returns its verdict', async () => {
    const { callGuards, bash, guard } = build({ guard: { decision: 'block', reason: 'outside' } });
    expect(await callGuards('Write')).toEqual({ decision: 'block', reason: 'outside' });
    expect(guard.seen).toEqual(['Write']);
    expect(bash.seen).toEqual([]);
  });

  it('sends Bash to the bash validator, then to the path guard when the validator allows it', async () => {
    const { callGuards, bash, guard } = build({ guard: { decision: 'block', reason: 'guard' } });
    expect(await callGuards('Bash')).toEqual({ decision: 'block', reason: 'guard' });
    expect(bash.seen).toEqual(['Bash']);
    expect(guard.seen).toEqual(['Bash']);
  });

  it('stops at the bash validator’s block', async () => {
    const { callGuards, guard } = build({ bash: { decision: 'block', reason: 'rm -rf' } });
    expect(await callGuards('Bash')).toEqual({ decision: 'block', reason: 'rm -rf' });
    expect(guard.seen).toEqual([]);
  });

  it('sends the ask-a-human tool to the subagent refusal, not to the guards', async () => {
    const { callGuards, bash, guard, refuse } = build();
    expect(await callGuards(ASK)).toEqual({ decision: 'block', reason: 'subagent' });
    expect(refuse.seen).toEqual([ASK]);
    expect([...bash.seen, ...guard.seen]).toEqual([]);
  });

  it('lets a guard that throws fail the call (the CLI blocks it: onFailure)', async () => {
    const failing: HookCallback = async () => {
      throw new Error('boom');
    };
    const hooks = buildClaudeHooks({
      bashValidator: failing,
      pathGuard: failing,
      askHumanTool: ASK,
      refuseSubagentAsking: failing,
      stopAfterAsking: failing,
    });
    await expect(
      hooks.PreToolUse?.[0]?.hooks[0]?.(preToolUse('Write'), 'u', { signal: new AbortController().signal }),
    ).rejects.toThrow('boom');
  });
});
