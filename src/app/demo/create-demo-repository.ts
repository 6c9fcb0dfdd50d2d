import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runGit } from '../../process/run-command.ts';

const AGENT_TOOLS = {
  planner: 'Read, Grep, Glob, Bash',
  implementor: 'Read, Write, Edit, Grep, Glob, Bash',
  reviewer: 'Read, Grep, Glob, Bash',
} as const;

const AGENT_PROMPTS = {
  planner: 'You are the planner. Turn the approved specs into small, ordered work items.',
  implementor: 'You are the implementor. Implement exactly one work item, with tests, and commit your work.',
  reviewer: 'You are the reviewer. Review the revision against the work item and the spec.',
} as const;

/** The sample project's package: a tiny ESM library whose `npm test` runs node's test runner. */
const DEMO_PACKAGE = {
  name: 'greetings',
  version: '1.0.0',
  type: 'module',
  private: true,
  scripts: { test: 'node --test' },
};

/** Its flotilla.config.json: `npm test` as the checks, short polls, no worktree setup. */
const DEMO_CONFIG = {
  specsDir: 'docs/specs',
  checks: { command: 'npm test', timeout: 120 },
  worktree: { setupCommand: 'none' },
  pollIntervals: { workItems: 2, revisions: 2, specs: 2 },
  maxAgentDuration: 300,
  shutdownTimeout: 30,
};

/** Its one approved spec: two items, the second built after the first. */
const DEMO_SPEC = [
  '---',
  'status: approved',
  '---',
  '# Greetings',
  '',
  'The library greets people.',
  '',
  '## Acceptance criteria',
  '1. `greet(name)` in `src/greet.js` returns `Hello, <name>!`.',
  '2. Surrounding whitespace in the name is trimmed.',
  '3. `farewell(name)` in `src/farewell.js` returns `Goodbye, <name>!`, built after greet().',
  '',
].join('\n');

/** Files of the throwaway sample project: a tiny ESM library with `npm test`, agents and one approved spec. */
function buildDemoFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(DEMO_PACKAGE, null, 2)}\n`,
    'README.md': '# greetings\n\nA sample project for the Flotilla demo.\n',
    'flotilla.config.json': `${JSON.stringify(DEMO_CONFIG, null, 2)}\n`,
    '.gitignore': 'node_modules/\n.flotilla/\n.worktrees/\n',
    '.claude/CLAUDE.md':
      'Conventions: ES modules, tests with node:test beside the code in test/, conventional commits.\n',
    'docs/specs/greetings.md': DEMO_SPEC,
  };
  for (const role of ['planner', 'implementor', 'reviewer'] as const) {
    files[`.claude/agents/${role}.md`] = [
      '---',
      `description: Flotilla ${role}`,
      `tools: ${AGENT_TOOLS[role]}`,
      'model: inherit',
      '---',
      AGENT_PROMPTS[role],
      '',
    ].join('\n');
  }
  return files;
}

const DEMO_GIT_ENV = {
  GIT_AUTHOR_NAME: 'Flotilla Demo',
  GIT_AUTHOR_EMAIL: 'demo@flotilla.invalid',
  GIT_COMMITTER_NAME: 'Flotilla Demo',
  GIT_COMMITTER_EMAIL: 'demo@flotilla.invalid',
};

/** Creates the sample repository in a new temporary directory and commits it on `main`. */
export async function createDemoRepository(): Promise<{ root: string; gitEnv: Record<string, string> }> {
  const root = await mkdtemp(join(tmpdir(), 'flotilla-demo-'));
  for (const [path, content] of Object.entries(buildDemoFiles())) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  const git = (args: string[]) => runGit(args, { cwd: root, env: DEMO_GIT_ENV });
  await git(['init', '--quiet', '--initial-branch', 'main']);
  await git(['config', 'commit.gpgsign', 'false']);
  await git(['add', '-A']);
  await git(['commit', '--quiet', '-m', 'Sample project with an approved spec']);
  return { root, gitEnv: DEMO_GIT_ENV };
}
