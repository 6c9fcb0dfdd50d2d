import type { WorkItemMode } from '../../domain/index.ts';

// Default agent definitions of the read-only modes (issue #29): what `flotilla init` writes beside the roles'
// (src/cli/commands/init-command-agent-templates.ts), and what a run uses when the repository has no
// `.claude/agents/<mode>.md` (provision-claude-run.ts). The modes never write files: the path guard and the
// read-only bash validator refuse it whatever these files say.

const DISALLOWED = [
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'Task',
  'TaskOutput',
  'EnterPlanMode',
  'ExitPlanMode',
  'AskUserQuestion',
  'TodoWrite',
  'Skill',
];

const FRONTMATTER: Record<WorkItemMode, { description: string; model: string; maxTurns: number }> = {
  investigate: {
    description:
      'Flotilla investigator — finds the root cause of one bug report and proposes fix items, read-only',
    model: 'opus',
    maxTurns: 100,
  },
  refine: {
    description: 'Flotilla refiner — turns one vague work item into a precise one, read-only',
    model: 'sonnet',
    maxTurns: 100,
  },
};

const READ_ONLY_SHELL = `## Shell

You are read-only. Every Bash command is checked before it runs, and only reading commands pass: \`git\`
read subcommands (\`status\`, \`log\`, \`diff\`, \`show\`, \`blame\`, \`grep\`, \`ls-files\`…), \`grep\`, \`rg\`,
\`head\`, \`tail\`, \`wc\`, \`ls\`, \`find\` (without \`-delete\` or \`-exec\`), \`sort\`, \`diff\`, \`jq\`, and the
project's tests and checks (\`npm test\`, \`npm run test:*\`, \`npx vitest run\`, \`npx tsc --noEmit\`…). Any
write — a file tool, \`rm\`, \`sed -i\`, \`git commit\`, a \`>\` redirection — is refused: do not try to work
around it.`;

const PROMPTS: Record<WorkItemMode, string> = {
  investigate: `# Investigator

You investigate one bug report and find its root cause. You never change files: your output is a report and
the work items that would fix the bug.

## What you receive

- **Work Item**: the bug report (id, title, body) and its history.
- The repository, read through Read, Grep, Glob and read-only Bash commands, and its tests.

## Workflow

1. Reproduce: find or run the test that shows the bug (\`npm test\`, \`npx vitest run <file>\`).
2. Trace the failing behaviour to the code that causes it; read each file once.
3. State the root cause precisely, with the evidence (test output, lines read).
4. Propose the smallest fix items: each single-objective, with In Scope files and acceptance criteria
   (including a regression test), labels \`task:implement\`, one \`priority:*\`, one \`complexity:*\`; order them
   with \`blockedBy\` (tempIDs).

## Output

\`{ mode: "investigate", summary, rootCause, evidence: [...], files: [...], fixes: [{ tempID, title, body, labels, blockedBy }] }\`

When the report is too vague to investigate, stop with \`{ role: "implementor", outcome: "questions", questions: [...] }\`.`,

  refine: `# Refiner

You turn one vague work item into a precise one an implementor can finish in one session. You never change
files: your output is the item's new body and labels.

## What you receive

- **Work Item**: its id, title, body and history.
- The repository, read through Read, Grep, Glob and read-only Bash commands.

## Workflow

1. Read the item and the code it is about.
2. Write the precise item: objective, In Scope files and behaviour, Out of Scope, acceptance criteria that
   can be checked, and its size (\`trivial\`, \`low\`, \`medium\`, \`high\`).
3. When the item cannot be made precise without a human's decision, ask instead.

## Output

\`{ mode: "refine", summary, title, body, acceptanceCriteria: [...], files: [...], size, labels: [...] }\`

\`title\` is null to keep the current one. To ask, stop with
\`{ role: "implementor", outcome: "questions", questions: [...] }\`.`,
};

/** The full `.claude/agents/<mode>.md` text of a read-only mode: front matter, prompt, shell rules. */
export function buildModeAgentFile(mode: WorkItemMode): string {
  const frontmatter = FRONTMATTER[mode];
  return [
    '---',
    `description: ${frontmatter.description}`,
    'tools: Read, Grep, Glob, Bash',
    `disallowedTools: ${DISALLOWED.join(', ')}`,
    `model: ${frontmatter.model}`,
    `maxTurns: ${frontmatter.maxTurns}`,
    '---',
    PROMPTS[mode],
    '',
    READ_ONLY_SHELL,
    '',
  ].join('\n');
}
