import type { HookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { ASK_HUMAN_TOOL, createAskHumanTool, withAskHumanTool } from './create-ask-human-tool.ts';
import { CONVERSATION_TOOLS } from './create-conversation-tools.ts';
import { NOTE_TOOLS } from './create-note-tools.ts';

describe('withAskHumanTool', () => {
  it('adds the tool to a restricted tool list and explains it in the prompt', () => {
    const definition = withAskHumanTool({
      tools: ['Read', 'StructuredOutput'],
      prompt: 'You are a test agent.',
    });
    expect(definition.tools).toEqual([
      'Read',
      'StructuredOutput',
      ASK_HUMAN_TOOL,
      ...NOTE_TOOLS,
      ...CONVERSATION_TOOLS,
    ]);
    expect(definition.prompt).toContain(`call the \`${ASK_HUMAN_TOOL}\` tool`);
    expect(definition.prompt).toContain('`mcp__flotilla__store_memory`: Store a fact');
    expect(definition.prompt).toContain('`mcp__flotilla__ask_agent`: Ask another agent');
  });

  it('leaves an inherited tool list inherited (MCP tools are inherited too)', () => {
    expect(withAskHumanTool({ prompt: 'p' })).not.toHaveProperty('tools');
  });

  it('keeps the tool out, and unmentioned, when the agent file disallows it (the note tools likewise)', () => {
    const definition = { tools: ['Read'], disallowedTools: [ASK_HUMAN_TOOL], prompt: 'p' };
    const offered = withAskHumanTool(definition);
    expect(offered.tools).toEqual(['Read', ...NOTE_TOOLS, ...CONVERSATION_TOOLS]);
    expect(offered.prompt).not.toContain(ASK_HUMAN_TOOL);
    // The conversation tools go together: one disallowed keeps all three out.
    const silent = { ...definition, disallowedTools: ['mcp__flotilla__answer_agent'] };
    expect(withAskHumanTool(silent).tools).toEqual(['Read', ASK_HUMAN_TOOL, ...NOTE_TOOLS]);
    expect(withAskHumanTool(silent).prompt).not.toContain('ask_agent');
    const none = { ...definition, disallowedTools: [ASK_HUMAN_TOOL, ...NOTE_TOOLS, ...CONVERSATION_TOOLS] };
    expect(withAskHumanTool(none)).toEqual(none);
  });
});

describe('createAskHumanTool hooks', () => {
  const call = (fields: Record<string, unknown>) =>
    ({
      session_id: 's',
      transcript_path: '/t',
      cwd: '/w',
      hook_event_name: 'PreToolUse',
      tool_name: ASK_HUMAN_TOOL,
      tool_input: { questions: ['Why?'] },
      tool_use_id: 'u',
      ...fields,
    }) as HookInput;
  const options = { signal: new AbortController().signal };

  it("refuses a subagent's call and lets the run's own agent ask", async () => {
    const tool = createAskHumanTool();
    expect(await tool.refuseSubagents(call({ agent_id: 'sub-1' }), 'u', options)).toMatchObject({
      decision: 'block',
      reason: expect.stringContaining('only the main agent may ask'),
    });
    expect(await tool.refuseSubagents(call({}), 'u', options)).toEqual({});
  });

  it('ends the session only after questions were recorded', async () => {
    const tool = createAskHumanTool();
    const after = call({ hook_event_name: 'PostToolUse', tool_response: {} });
    expect(await tool.stopAfterAsking(after, 'u', options)).toEqual({});
    expect(tool.asked()).toBeNull();
  });
});
