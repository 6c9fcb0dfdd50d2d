import { describe, expect, it } from 'vitest';
import { ASK_HUMAN_TOOL, withAskHumanTool } from './create-ask-human-tool.ts';

describe('withAskHumanTool', () => {
  it('adds the tool to a restricted tool list and explains it in the prompt', () => {
    const definition = withAskHumanTool({
      tools: ['Read', 'StructuredOutput'],
      prompt: 'You are a test agent.',
    });
    expect(definition.tools).toEqual(['Read', 'StructuredOutput', ASK_HUMAN_TOOL]);
    expect(definition.prompt).toContain(`call the \`${ASK_HUMAN_TOOL}\` tool`);
  });

  it('leaves an inherited tool list inherited (MCP tools are inherited too)', () => {
    expect(withAskHumanTool({ prompt: 'p' })).not.toHaveProperty('tools');
  });

  it('keeps the tool out, and unmentioned, when the agent file disallows it', () => {
    const definition = { tools: ['Read'], disallowedTools: [ASK_HUMAN_TOOL], prompt: 'p' };
    expect(withAskHumanTool(definition)).toEqual(definition);
  });
});
