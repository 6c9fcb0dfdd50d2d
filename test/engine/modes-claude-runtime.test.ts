/**
 * Modes `investigate` and `refine` through the whole control plane (issue #29): the real Claude Agent SDK
 * binary against the scripted model server (every role `scripted`), the local provider on SQLite and a real
 * git repository. The planner creates a bug report (`task:investigate`) and a vague item (`task:refine`).
 * The investigator's attempt to write a file is refused by the read-only guards (the server rejects its
 * next request unless the tool result says so); its report waits as a proposal, is accepted with
 * `flotilla proposals accept`, and its fix item — whose prompt must carry the report as task context — is
 * implemented and approved. The refinement, accepted likewise, rewrites the vague item, which goes back to
 * pending and is implemented and approved with the refined body. It is accepted with `--edit`: a malformed
 * edit is refused naming its line and kept, the fixed one is what gets applied.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { Proposal } from '../../src/domain/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { buildModeAgentFile } from '../../src/runtimes/claude/mode-agent-files.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const ROOT_CAUSE = 'greet() reads name.trim() on an undefined name';
const REFINED_CRITERION = 'farewell(name) in src/farewell.js returns Goodbye, <name>!';

type Step = ScenarioSpec['routes'][number]['steps'][number];

function implementorSteps(file: string, content: string, summary: string, expected?: Step['expect']): Step[] {
  return [
    {
      ...(expected !== undefined && { expect: expected }),
      content: [
        { type: 'tool_use', name: 'Write', input: { file_path: `{{cwd}}/${file}`, content } },
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: `git add -A && git commit -q -m "fix: ${summary}"`, description: 'Commit' },
        },
      ],
    },
    { structuredOutput: { role: 'implementor', outcome: 'completed', summary } },
  ];
}

const scenario: ScenarioSpec = {
  name: 'modes',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [
        {
          structuredOutput: {
            role: 'planner',
            create: [
              {
                tempID: 'bug',
                title: 'Bug: greet() throws without a name',
                body: 'Calling greet() with no argument throws a TypeError.',
                labels: ['task:investigate', 'priority:high'],
                blockedBy: [],
              },
              {
                tempID: 'vague',
                title: 'Say goodbye somehow',
                body: 'We should also say goodbye.',
                labels: ['task:refine', 'priority:low'],
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
      name: 'investigator',
      match: { systemIncludes: 'You investigate one bug report' },
      steps: [
        {
          expect: { firstUserIncludes: 'Bug: greet() throws without a name' },
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: 'echo "export const greet = () => 1;" > src/greet.js', description: 'Patch' },
            },
          ],
        },
        {
          // The read-only bash validator refused the write; only then does the report come.
          expect: { lastToolResultIncludes: 'this session is read-only' },
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'git log --oneline -1' } }],
        },
        {
          expect: { lastToolResultIncludes: 'Modes scenario' },
          structuredOutput: {
            mode: 'investigate',
            summary: 'greet() assumes a name.',
            rootCause: ROOT_CAUSE,
            evidence: ['greet() → TypeError: Cannot read properties of undefined'],
            files: ['src/greet.js'],
            fixes: [
              {
                tempID: 'fix',
                title: 'Default the name of greet()',
                body: 'greet() with no name returns "Hello, world!".',
                labels: ['task:implement', 'priority:high', 'complexity:trivial'],
                blockedBy: [],
              },
            ],
          },
        },
      ],
    },
    {
      name: 'refiner',
      match: { systemIncludes: 'You turn one vague work item into a precise one' },
      steps: [
        {
          expect: { firstUserIncludes: 'Say goodbye somehow' },
          structuredOutput: {
            mode: 'refine',
            summary: 'Goodbye means a farewell() function.',
            title: null,
            body: 'Add farewell(name) to src/farewell.js.',
            acceptanceCriteria: [REFINED_CRITERION],
            files: ['src/farewell.js'],
            size: 'trivial',
            labels: ['priority:low'],
          },
        },
      ],
    },
    {
      name: 'implementor-fix',
      match: { systemIncludes: 'You are the implementor', firstUserIncludes: 'Default the name of greet()' },
      // The investigation's report is the fix item's task context.
      steps: implementorSteps(
        'src/greet.js',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's JavaScript source, template literal included
        "export function greet(name = 'world') {\n  return `Hello, ${name}!`;\n}\n",
        'greet() defaults the name',
        { firstUserIncludes: ROOT_CAUSE },
      ),
    },
    {
      name: 'implementor-refined',
      match: { systemIncludes: 'You are the implementor', firstUserIncludes: REFINED_CRITERION },
      steps: implementorSteps(
        'src/farewell.js',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's JavaScript source, template literal included
        'export function farewell(name) {\n  return `Goodbye, ${name}!`;\n}\n',
        'farewell()',
      ),
    },
    {
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
    },
  ],
};

describe('modes investigate and refine, on the Claude runtime (real SDK)', () => {
  it('investigate → proposal → accept → fix approved; refine → accept → implemented', async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'scenario.json',
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        validation: { commands: [] },
        approval: { investigations: 'required', refinements: 'required' },
      },
      {
        prepare: async (root) => {
          await writeFile(join(root, 'scenario.json'), JSON.stringify(scenario));
          for (const mode of ['investigate', 'refine'] as const)
            await writeFile(join(root, '.claude', 'agents', `${mode}.md`), buildModeAgentFile(mode));
        },
        message: 'Modes scenario',
      },
    );
    const controlPlane = await fixtures.startControlPlane(repo);
    const state = () => controlPlane.engine.getState();
    const pending = (kind: Proposal['kind']) =>
      Object.values(state().proposals).find(
        (proposal) => proposal.kind === kind && proposal.status === 'pending',
      );
    const itemTitled = (title: string) =>
      Object.values(state().workItems).find((item) => item.title === title);

    await waitUntil(
      () => pending('investigation') !== undefined && pending('refinement') !== undefined,
      120_000,
      'both proposals',
    );
    const investigation = pending('investigation')!;
    const refinement = pending('refinement')!;
    const bug = itemTitled('Bug: greet() throws without a name')!;
    const vague = itemTitled('Say goodbye somehow')!;
    expect(investigation.subjectID).toBe(bug.id);
    expect(refinement.subjectID).toBe(vague.id);
    // Nothing applied yet: both wait for a human; no fix item exists.
    expect(bug.status).toBe('needs-refinement');
    expect(vague.status).toBe('needs-refinement');
    expect(itemTitled('Default the name of greet()')).toBeUndefined();
    const runs = controlPlane.persistence.listRuns().filter((run) => run.role === 'implementor');
    expect(runs.map((run) => (run.role === 'implementor' ? run.mode : null)).sort()).toEqual([
      'investigate',
      'refine',
    ]);

    const shownRuns = await runFlotillaInProcess(repo.root, ['runs']);
    expect(shownRuns.code).toBe(0);
    expect(shownRuns.stdout).toContain('investigate');

    expect((await runFlotillaInProcess(repo.root, ['proposals', 'accept', investigation.id])).code).toBe(0);
    // The refinement is accepted with an edit (`--edit`, $EDITOR): first a malformed one, reported with its
    // line and kept; then a good one, which is what gets applied.
    const editor = join(repo.root, '.flotilla', 'test-editor.sh');
    const setEditor = async (script: string) => {
      await writeFile(editor, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      process.env.EDITOR = editor;
    };
    const savedEditor = process.env.EDITOR;
    try {
      await setEditor(`sed -i 's/^size: trivial$/size: 3/' "$1"`);
      const malformed = await runFlotillaInProcess(repo.root, [
        'proposals',
        'accept',
        refinement.id,
        '--edit',
      ]);
      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toMatch(/proposal-edits\/\d+\.yaml: line \d+: size: /);
      expect(malformed.stderr).toContain('your edit is kept there');
      expect(state().proposals[refinement.id]?.status).toBe('pending');
      // The kept edit is reopened: fixing the one line is enough.
      await setEditor(`sed -i 's/^size: 3$/size: low/' "$1"`);
      const accepted = await runFlotillaInProcess(repo.root, [
        'proposals',
        'accept',
        refinement.id,
        '--edit',
      ]);
      expect(accepted.stderr).toBe('');
      expect(accepted.code).toBe(0);
      expect(accepted.stdout).toContain('your edited version is applied');
    } finally {
      if (savedEditor === undefined) delete process.env.EDITOR;
      else process.env.EDITOR = savedEditor;
    }

    await waitUntil(
      () =>
        itemTitled('Default the name of greet()')?.status === 'approved' &&
        state().workItems[vague.id]?.status === 'approved',
      180_000,
      'the fix item and the refined item approved',
    );
    const fix = itemTitled('Default the name of greet()')!;
    expect(state().workItems[bug.id]?.status).toBe('closed');
    expect(state().taskContext[fix.id]?.map((entry) => entry.type)).toContain('investigation_report');
    const tracker = controlPlane.provider.localTracker;
    if (tracker === undefined) throw new Error('expected the local provider');
    const bugComments = tracker.workItems.getWorkItemComments(bug.id).map((comment) => comment.body);
    expect(bugComments.join('\n')).toContain(ROOT_CAUSE);
    expect(bugComments.join('\n')).toContain(`Fix items: #${fix.id}`);
    expect(state().workItems[vague.id]).toMatchObject({ kind: 'task', complexity: 'low' });
    expect(state().workItems[vague.id]?.mode).toBeUndefined();
    expect(state().proposals[investigation.id]?.status).toBe('accepted');
    expect(state().workItems[investigation.id]?.status).toBe('closed');
  }, 400_000);
});
