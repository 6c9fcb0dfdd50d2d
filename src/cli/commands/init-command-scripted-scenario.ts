import type { ScenarioSpec } from '../../model-server/scenario-schema.ts';

/** Where `flotilla init --scripted` writes the sample scenario, relative to the repository root. */
export const SCRIPTED_SCENARIO_PATH = 'flotilla.scenario.json';

/** The file the scripted implementor writes in its worktree (so the revision has a visible diff). */
const DRY_RUN_FILE = 'docs/flotilla-dry-run.md';

/**
 * The sample scenario `flotilla init --scripted` writes: one route per role, matched on a sentence of the
 * agent prompts `init` writes (init-command-agent-templates.ts), so the whole loop runs without an API key —
 * the planner creates one work item from whatever approved spec it is given, the implementor writes
 * DRY_RUN_FILE, the reviewer approves. Format: src/model-server/README.md.
 */
export function buildScriptedScenario(): ScenarioSpec {
  return {
    name: 'flotilla-dry-run',
    onUnmetExpectation: 'record',
    routes: [
      {
        name: 'planner',
        match: { systemIncludes: 'You turn approved specifications into work items' },
        steps: [
          {
            text: 'Scripted planner: one work item for the approved spec(s).',
            structuredOutput: {
              role: 'planner',
              create: [
                {
                  tempID: 't1',
                  title: `Dry run: write ${DRY_RUN_FILE}`,
                  body: [
                    '## Objective',
                    `Write ${DRY_RUN_FILE} saying the scripted dry run went through the whole loop.`,
                    '',
                    '## In Scope',
                    `- ${DRY_RUN_FILE}`,
                    '',
                    '## Out of Scope',
                    '- Everything else: this item comes from flotilla.scenario.json, not from a model.',
                    '',
                    '## Acceptance Criteria',
                    `- [ ] ${DRY_RUN_FILE} exists`,
                    '',
                  ].join('\n'),
                  labels: ['task:implement', 'priority:medium', 'complexity:trivial'],
                  blockedBy: [],
                },
              ],
              close: [],
              update: [],
            },
          },
        ],
      },
      {
        name: 'implementor',
        match: { systemIncludes: 'You implement exactly one work item' },
        steps: [
          {
            text: `Scripted implementor: writing ${DRY_RUN_FILE}.`,
            content: [
              {
                type: 'tool_use',
                name: 'Write',
                input: {
                  file_path: `{{cwd}}/${DRY_RUN_FILE}`,
                  content:
                    '# Flotilla dry run\n\nWritten by the scripted implementor (flotilla.scenario.json): the loop ' +
                    'plan → implement → checks → review ran without a model.\n',
                },
              },
            ],
          },
          {
            structuredOutput: {
              role: 'implementor',
              outcome: 'completed',
              summary: `Wrote ${DRY_RUN_FILE} (scripted).`,
            },
          },
        ],
      },
      {
        name: 'reviewer',
        match: { systemIncludes: 'You review one revision against its work item' },
        steps: [
          {
            structuredOutput: {
              role: 'reviewer',
              review: { verdict: 'approve', summary: 'Scripted reviewer: approved.', comments: [] },
            },
          },
        ],
      },
    ],
  };
}
