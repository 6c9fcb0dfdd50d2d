/**
 * The scripted pieces the refinement end-to-end tests share: a vague "say goodbye" item that a refinement turns
 * into `farewell(name)`, which an implementor writes and commits and a reviewer approves.
 */
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';

type Route = ScenarioSpec['routes'][number];

/** The acceptance criterion the refinement writes; the implementor's route is matched by it. */
export const FAREWELL_CRITERION = 'farewell(name) returns Goodbye, <name>!';

/** The refiner's report: a precise item, size trivial, no labels of its own. */
export const FAREWELL_REFINE_REPORT = {
  mode: 'refine',
  summary: 'Goodbye is a farewell() function.',
  title: 'Add farewell(name)',
  body: 'Add farewell(name) to src/farewell.js.',
  acceptanceCriteria: [FAREWELL_CRITERION],
  files: ['src/farewell.js'],
  size: 'trivial',
  labels: [],
};

/** The implementor of the refined item: writes src/farewell.js, commits it, completes. */
export const FAREWELL_IMPLEMENTOR_ROUTE: Route = {
  name: 'implementor',
  match: { systemIncludes: 'You are the implementor', firstUserIncludes: FAREWELL_CRITERION },
  steps: [
    {
      content: [
        {
          type: 'tool_use',
          name: 'Write',
          input: {
            file_path: '{{cwd}}/src/farewell.js',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's JavaScript source
            content: 'export function farewell(name) {\n  return `Goodbye, ${name}!`;\n}\n',
          },
        },
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'git add -A && git commit -q -m "farewell()"', description: 'Commit' },
        },
      ],
    },
    { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'farewell()' } },
  ],
};

/** A reviewer that approves whatever it is shown. */
export const APPROVING_REVIEWER_ROUTE: Route = {
  name: 'reviewer',
  match: { systemIncludes: 'You are the reviewer' },
  steps: [
    {
      structuredOutput: {
        role: 'reviewer',
        review: { verdict: 'approve', summary: 'Matches the item.', comments: [] },
      },
    },
  ],
};
