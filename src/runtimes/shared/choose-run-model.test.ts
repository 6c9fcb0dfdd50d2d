import { describe, expect, it } from 'vitest';
import type { AgentStartParams } from '../../engine/runtime-contract/index.ts';
import { chooseRunModel } from './choose-run-model.ts';

const implementor = (model?: string) =>
  ({
    role: 'implementor',
    sessionID: 's1',
    workItemID: '7',
    prompt: '## Work Item #7',
    ...(model !== undefined && { model }),
  }) as AgentStartParams;

describe('chooseRunModel', () => {
  it("takes the engine's choice for an implementor run over the role's and the runtime's model", () => {
    const config = { models: { implementor: 'gpt-5' }, model: 'gpt-5-codex' };
    expect(chooseRunModel(implementor('gpt-5-mini'), 'implementor', config)).toBe('gpt-5-mini');
    expect(chooseRunModel(implementor(), 'implementor', config)).toBe('gpt-5');
    expect(chooseRunModel(implementor(), 'implementor', { model: 'gpt-5-codex' })).toBe('gpt-5-codex');
    expect(chooseRunModel(implementor(), 'implementor', {})).toBeUndefined();
  });

  it('ignores a model on a run of another role', () => {
    const reviewer = {
      role: 'reviewer',
      sessionID: 's2',
      model: 'gpt-5-mini',
    } as unknown as AgentStartParams;
    expect(chooseRunModel(reviewer, 'reviewer', { models: { reviewer: 'gpt-5' } })).toBe('gpt-5');
  });
});
