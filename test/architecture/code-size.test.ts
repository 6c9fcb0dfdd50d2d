import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureFunctionSizes } from './measure-function-sizes.ts';
import { readSourceTree } from './read-source-tree.ts';

/**
 * Size limits for production code (issue #27 §5): no file over 600 lines, no function over 50 lines of its
 * own (nested functions count on their own). The functions below were longer when the limit came; each may
 * shrink but never grow, and leaves the list once it fits. Never add to it: split the function instead.
 */
const ROOT = join(import.meta.dirname, '../..');
const MAX_FILE_LINES = 600;
const MAX_OWN_LINES = 50;

/** `path name`: the own lines it had when the limit came (an upper bound from now on). */
const LONG_FUNCTIONS: Readonly<Record<string, number>> = {
  'src/api/create-provider-api-app.ts createProviderApiApp': 65,
  'src/cli/commands/doctor-command-checks.ts runDoctorChecks': 57,
  'src/cli/commands/init-command-scripted-scenario.ts buildScriptedScenario': 84,
  'src/cli/commands/memory-command.ts registerMemoryCommand': 51,
  'src/cluster/create-run-executor.ts execute': 66,
  'src/engine/command-executor/advance-merge-queue.ts <anonymous>': 85,
  'src/engine/command-executor/build-run-requested-event.ts buildWithoutAccount': 65,
  'src/engine/command-executor/create-conversation-broker.ts ask': 54,
  'src/engine/command-executor/start-agent-async.ts startAgentAsync': 103,
  'src/engine/create-engine.ts createEngine': 106,
  'src/model-server/build-codex-server-config.ts buildCodexServerConfig': 56,
  'src/model-server/check-expectations.ts checkExpectations': 56,
  'src/model-server/create-model-server.ts createModelServer': 62,
  'src/providers/github/create-github-provider.ts createGitHubProvider': 93,
  'src/providers/github/revisions/create-github-feedback.ts listFeedback': 92,
  'src/providers/github/revisions/push-patch-branch.ts pushPatchBranch': 63,
  'src/providers/github/setup/check-github-for-doctor.ts checkGitHubForDoctor': 79,
  'src/providers/github/setup/create-github-admin.ts check': 56,
  'src/providers/local/create-local-provider.ts mergeRevision': 55,
  'src/providers/local/git/integrate-revision.ts planIntegration': 78,
  'src/providers/local/git/rebase-revision.ts rebaseRevision': 62,
  'src/providers/shared/create-branch-from-patch.ts createBranchFromPatch': 67,
  'src/runtimes/claude/provision-claude-run.ts provisionClaudeRun': 51,
  'src/runtimes/cli/prepare-cli-turn.ts prepareCliTurn': 52,
  'src/runtimes/codex/provision-codex-run.ts provisionCodexRun': 84,
  'src/runtimes/gemini/prepare-gemini-turn.ts onLine': 71,
  'src/runtimes/scripted/create-scripted-adapter.ts startAgent': 57,
  'src/sandbox/create-sandbox.ts wrapOn': 62,
  'src/sandbox/plan-sandbox-layout.ts planSandboxLayout': 71,
  'src/storage/engine-state/create-engine-state-persistence.ts <anonymous>': 67,
  'src/tui/dashboard-app.tsx DashboardApp': 117,
};

/** Files still over the limit, each with its size then; shrink them. */
const LONG_FILES: Readonly<Record<string, number>> = {};

const PRODUCTION = /\.tsx?$/;
const production = [...readSourceTree(ROOT, 'src'), ...readSourceTree(ROOT, 'web/src')]
  .map((file) => file.path)
  .filter((path) => PRODUCTION.test(path) && !/\.test\.tsx?$/.test(path));
const sources = new Map(production.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
// Measured once for the three cases: parsing every production file takes seconds on a loaded machine.
const sizes = [...sources].flatMap(([path, text]) => measureFunctionSizes(path, text));
const keyOf = (where: string) => where.replace(/:\d+ /, ' ');

describe('production code stays small', () => {
  it(`no file is over ${MAX_FILE_LINES} lines, and the listed ones do not grow`, () => {
    const over = [...sources]
      .map(([path, text]) => ({ path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ path, lines }) => lines > (LONG_FILES[path] ?? MAX_FILE_LINES))
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it(`no function has more than ${MAX_OWN_LINES} lines of its own, and the listed ones do not grow`, () => {
    const over = sizes
      .filter((size) => size.ownLines > MAX_OWN_LINES)
      .filter((size) => size.ownLines > (LONG_FUNCTIONS[keyOf(size.where)] ?? MAX_OWN_LINES))
      .map((size) => `${size.where}: ${size.ownLines} own lines`);
    expect(over).toEqual([]);
  });

  it('lists no function or file that now fits (take it off the list)', () => {
    const long = new Set(
      sizes.filter((size) => size.ownLines > MAX_OWN_LINES).map((size) => keyOf(size.where)),
    );
    expect(Object.keys(LONG_FUNCTIONS).filter((key) => !long.has(key))).toEqual([]);
    const longFiles = Object.keys(LONG_FILES).filter(
      (path) => (sources.get(path)?.split('\n').length ?? 0) > MAX_FILE_LINES + 1,
    );
    expect(Object.keys(LONG_FILES).filter((path) => !longFiles.includes(path))).toEqual([]);
  });
});
