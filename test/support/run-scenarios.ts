import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';

/** What the `flotilla run` end-to-end scenarios have agents write and return. */

/** The planner's result creating one item, "Add greet(name)". */
export const ONE_ITEM_PLAN = {
  role: 'planner',
  create: [{ tempID: 'a', title: 'Add greet(name)', body: 'Objective: greet.', labels: [], blockedBy: [] }],
  close: [],
  update: [],
};

/** The greet the implementors of these scenarios write. */
export const GREET = "export const greet = (n) => 'Hello, ' + n + '!';\n";

/** A model turn writing `src/greet.js` (GREET) in the agent's worktree. */
export const WRITE_GREET = {
  type: 'tool_use' as const,
  name: 'Write',
  input: { file_path: '{{cwd}}/src/greet.js', content: GREET },
};

/** A reviewer's approval. */
export const APPROVE = { role: 'reviewer', review: { verdict: 'approve', summary: 'ok', comments: [] } };

/** The planner creates one item; its implementor's first model reply never comes (until the server closes). */
export function slowImplementorScenario(): ScenarioSpec {
  return {
    name: 'slow-implementor',
    routes: [
      {
        name: 'planner',
        match: { systemIncludes: 'You are the planner' },
        steps: [{ structuredOutput: ONE_ITEM_PLAN }],
      },
      {
        name: 'implementor',
        match: { systemIncludes: 'You are the implementor' },
        steps: [{ delayMs: 120_000, text: 'never answered' }],
      },
    ],
  };
}

/**
 * After a restart: the implementor writes greet and completes, the reviewer approves. With `planner`, a
 * planner route answers ONE_ITEM_PLAN (tests then assert it got no request); without, a planner request
 * is unrouted.
 */
export function finishScenario(options: { planner: boolean }): ScenarioSpec {
  return {
    name: 'finish',
    routes: [
      ...(options.planner
        ? [
            {
              name: 'planner',
              match: { systemIncludes: 'You are the planner' },
              steps: [{ structuredOutput: ONE_ITEM_PLAN }],
            },
          ]
        : []),
      {
        name: 'reviewer',
        match: { systemIncludes: 'You are the reviewer' },
        steps: [{ structuredOutput: APPROVE }],
      },
      {
        name: 'implementor',
        match: { systemIncludes: 'You are the implementor' },
        steps: [
          { content: [WRITE_GREET] },
          { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greet added' } },
        ],
      },
    ],
  };
}
