import { describe, expect, it } from 'vitest';
import { buildTestState, buildWorkItem } from '../../../test/support/shared/builders/index.ts';
import { buildRunModeOptions } from './build-run-mode-options.ts';

const state = buildTestState({
  workItems: [
    buildWorkItem({ id: 'bug', mode: 'investigate' }),
    buildWorkItem({ id: 'vague', mode: 'refine' }),
    buildWorkItem({ id: 'tiny', complexity: 'trivial' }),
    buildWorkItem({ id: 'hard', complexityLabel: 'complex' }),
    buildWorkItem({ id: 'plain' }),
  ],
});
const implement = (workItemID: string) => ({ type: 'requestImplementorRun' as const, workItemID });
const models = { trivial: 'haiku', simple: 'sonnet', complex: 'opus' };

describe('buildRunModeOptions', () => {
  it("takes the mode from the item's label and seed 003's limits, capped by maxAgentDuration", () => {
    expect(buildRunModeOptions(implement('bug'), state, { maxAgentDuration: 1800 })).toEqual({
      mode: 'investigate',
      limits: { defaultMaxTurns: 100, timeoutSeconds: 300 },
    });
    expect(buildRunModeOptions(implement('plain'), state, { maxAgentDuration: 1800 })).toEqual({
      limits: { defaultMaxTurns: 200, timeoutSeconds: 600 },
    });
    expect(
      buildRunModeOptions(implement('plain'), state, { maxAgentDuration: 120 }).limits.timeoutSeconds,
    ).toBe(120);
    const review = { type: 'requestReviewerRun' as const, workItemID: 'plain', revisionID: 'r1' };
    expect(buildRunModeOptions(review, state, { maxAgentDuration: 1800 }).limits).toEqual({
      defaultMaxTurns: 50,
      timeoutSeconds: 1800,
    });
    const plan = { type: 'requestPlannerRun' as const, specPaths: [], specSHAs: {} };
    expect(buildRunModeOptions(plan, state, { maxAgentDuration: 1800 }).limits.timeoutSeconds).toBe(300);
  });

  it('lets configured limits replace the defaults and maxAgentDuration', () => {
    const options = buildRunModeOptions(implement('vague'), state, {
      maxAgentDuration: 60,
      limits: { refine: { maxTurns: 7, timeout: 900 } },
    });
    expect(options).toEqual({
      mode: 'refine',
      limits: { maxTurns: 7, defaultMaxTurns: 100, timeoutSeconds: 900 },
    });
  });

  it("routes the implementor's model by the item's complexity label, saying why", () => {
    expect(buildRunModeOptions(implement('tiny'), state, { implementorModels: models })).toMatchObject({
      model: 'haiku',
      modelReason: 'complexity:trivial → haiku (models.implementor)',
    });
    expect(buildRunModeOptions(implement('hard'), state, { implementorModels: models })).toMatchObject({
      model: 'opus',
    });
    const none = buildRunModeOptions(implement('plain'), state, { implementorModels: models });
    expect(none.model).toBeUndefined();
    expect(none.modelReason).toBe('no complexity:* label; the agent definition’s model');
    // Investigations keep their own agent definition's model.
    expect(buildRunModeOptions(implement('bug'), state, { implementorModels: models }).model).toBeUndefined();
  });
});
