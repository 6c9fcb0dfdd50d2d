import type { ContentBlockSpec, ScenarioSpec } from '../../src/model-server/scenario-schema.ts';

type Role = 'planner' | 'implementor' | 'reviewer';

/** How each runtime's role prompts start: Claude's agent files, and Codex's built-in role instructions. */
export const ROLE_MARKERS = {
  claude: (role: Role) => `You are the ${role}`,
  codex: (role: Role) => `You are the ${role[0]?.toUpperCase()}${role.slice(1)} of Flotilla`,
} as const;

/**
 * One item's loop where the implementor first stops with `questions`, then — only once the resumed request
 * carries the human's answer (`onUnmetExpectation: 'reject'`, so a fresh session or a lost answer fails the
 * run) — does `work` and completes; the planner plans the one item and the reviewer approves it.
 */
export function buildQuestionsScenario(options: {
  name: string;
  roleMarker: (role: Role) => string;
  item: { title: string; body: string };
  questions: string[];
  answer: string;
  /** The implementor's tool calls after the answer. */
  work: ContentBlockSpec[];
  summary: string;
}): ScenarioSpec {
  return {
    name: options.name,
    onUnmetExpectation: 'reject',
    routes: [
      {
        name: 'planner',
        match: { systemIncludes: options.roleMarker('planner') },
        steps: [
          {
            structuredOutput: {
              role: 'planner',
              create: [{ tempID: 'a', ...options.item, labels: [], blockedBy: [] }],
              close: [],
              update: [],
            },
          },
        ],
      },
      {
        name: 'reviewer',
        match: { systemIncludes: options.roleMarker('reviewer') },
        steps: [
          {
            structuredOutput: {
              role: 'reviewer',
              review: { verdict: 'approve', summary: 'ok', comments: [] },
            },
          },
        ],
      },
      {
        name: 'implementor',
        match: { systemIncludes: options.roleMarker('implementor') },
        steps: [
          { structuredOutput: { role: 'implementor', outcome: 'questions', questions: options.questions } },
          {
            expect: { lastUserIncludes: ['A human answered your questions', options.answer] },
            content: options.work,
          },
          { structuredOutput: { role: 'implementor', outcome: 'completed', summary: options.summary } },
        ],
      },
    ],
  };
}
