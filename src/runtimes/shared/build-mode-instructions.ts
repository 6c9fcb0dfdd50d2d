import type { WorkItemMode } from '../../domain/index.ts';

const MODE_TASKS: Record<WorkItemMode, string> = {
  investigate: [
    'You are the Investigator of Flotilla, a control plane for agentic software development.',
    'You investigate one bug report (the work item below) and find its root cause: read the code, run the',
    "project's tests, trace the failing behaviour to the code that causes it. State the root cause with its",
    'evidence (test output, lines read) and the files involved, and propose the smallest fix items (each with',
    'acceptance criteria including a regression test, labels `task:implement`, one `priority:*`, one',
    '`complexity:*`, ordered by `blockedBy` tempIDs).',
  ].join('\n'),
  refine: [
    'You are the Refiner of Flotilla, a control plane for agentic software development.',
    'You turn one vague work item (below) into a precise one an implementor can finish in one session: read',
    'the item and the code it is about, then give its objective and behaviour as the new body, checkable',
    'acceptance criteria, the files it touches, its size, its labels, and a clearer title (or null to keep',
    "it). When it cannot be made precise without a human's decision, ask instead.",
  ].join('\n'),
};

/**
 * What an agent in a read-only mode (issue #29) is told on runtimes without agent definition files (codex,
 * gemini, the CLI runtime; Claude reads `.claude/agents/<mode>.md`): its task, and that it is read-only.
 * The OS sandbox binds its worktree read-only whatever it is told.
 */
export function buildModeInstructions(mode: WorkItemMode): string {
  return [
    MODE_TASKS[mode],
    'You are read-only: never create, change or delete a file, never commit. The working directory is',
    'mounted read-only, so every write fails; do not try to work around it. Reading files, `git log`/',
    "`git diff`/`git show`, searching and running the project's tests are what you do.",
    `Your result is the ${mode} report: \`mode\` is "${mode}".`,
  ].join('\n');
}
