import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import type { Scenario, Step } from '../../src/model-server/scenario-types.ts';

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

/** The implementor's result once greet is written. */
export const GREET_COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'greet added' };

/**
 * One item's loop: the planner creates it (ONE_ITEM_PLAN; no planner route with `planner: false`, so a
 * planner request is unrouted), the implementor plays `implementor`, the reviewer approves.
 */
export function oneItemScenario(
  name: string,
  implementor: Step[],
  options: { planner?: boolean } = {},
): Scenario {
  return {
    name,
    routes: [
      ...(options.planner === false
        ? []
        : [
            {
              name: 'planner',
              match: { systemIncludes: 'You are the planner' },
              steps: [{ structuredOutput: ONE_ITEM_PLAN }],
            },
          ]),
      {
        name: 'reviewer',
        match: { systemIncludes: 'You are the reviewer' },
        steps: [{ structuredOutput: APPROVE }],
      },
      { name: 'implementor', match: { systemIncludes: 'You are the implementor' }, steps: implementor },
    ],
  };
}

/** Numbers the sessions a route sees in the order of their first request (0-based). */
export function createSessionCounter(): (sessionId: string | undefined) => number {
  const sessions: string[] = [];
  return (sessionId) => {
    const key = sessionId ?? '';
    if (!sessions.includes(key)) sessions.push(key);
    return sessions.indexOf(key);
  };
}

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
  return oneItemScenario(
    'finish',
    [{ content: [WRITE_GREET] }, { structuredOutput: GREET_COMPLETED }],
    options,
  );
}
