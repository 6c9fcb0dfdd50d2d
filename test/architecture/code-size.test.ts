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
  'src/analytics/build-stats-lines.ts buildStatsLines': 56,
  'src/api/create-provider-api-app.ts createProviderApiApp': 65,
  'src/api/register-history-routes.ts registerHistoryRoutes': 52,
  'src/api/register-review-routes.ts registerReviewRoutes': 54,
  'src/app/build-current-prompt.ts buildCurrentPrompt': 79,
  'src/app/create-control-plane.ts startControlPlane': 128,
  'src/app/demo/create-demo-repository.ts buildDemoFiles': 57,
  'src/app/demo/run-demo.ts runDemo': 100,
  'src/app/progress/describe-event.ts describeEvent': 83,
  'src/cli/commands/bash-check-command.ts <anonymous>': 51,
  'src/cli/commands/doctor-command-checks.ts runDoctorChecks': 57,
  'src/cli/commands/hook-command.ts runPreToolUseHook': 54,
  'src/cli/commands/init-command-scripted-scenario.ts buildScriptedScenario': 84,
  'src/cli/commands/memory-command.ts registerMemoryCommand': 51,
  'src/cli/commands/run-command.ts <anonymous>': 196,
  'src/cli/support/record-human-review.ts recordHumanReview': 54,
  'src/cli/support/run-merge-queue.ts runMergeQueue': 77,
  'src/cluster/create-run-executor.ts execute': 66,
  'src/demo/fake-github/answer-fake-github-app.ts answerApp': 51,
  'src/demo/fake-github/create-fake-github.ts createFakeGitHub': 77,
  'src/demo/fake-github/create-fake-github.ts handle': 116,
  'src/demo/fake-github/fake-github-pull-routes.ts <anonymous>': 58,
  'src/demo/fake-github/fake-github-webhooks.ts eventsForWrite': 70,
  'src/engine/command-executor/advance-merge-queue.ts <anonymous>': 85,
  'src/engine/command-executor/build-run-requested-event.ts buildWithoutAccount': 65,
  'src/engine/command-executor/create-conversation-broker.ts ask': 54,
  'src/engine/command-executor/guards/guard-run-request.ts guardRunRequest': 63,
  'src/engine/command-executor/start-agent-async.ts startAgentAsync': 103,
  'src/engine/context-assembly/parse-prompt-template.ts parsePromptTemplate': 57,
  'src/engine/create-engine.ts createEngine': 106,
  'src/engine/handlers/build-parking-commands.ts buildParkingCommands': 60,
  'src/engine/handlers/handle-implementation.ts reactToFailure': 51,
  'src/engine/handlers/handle-planning.ts handlePlanning': 52,
  'src/engine/state-store/apply-questions-update.ts applyQuestionsUpdate': 72,
  'src/guards/bash-validator/inspectors/inspect-awk.ts inspectAwk': 52,
  'src/guards/bash-validator/inspectors/inspect-git.ts checkProgramAndOutputOptions': 59,
  'src/guards/bash-validator/inspectors/inspect-git.ts checkSubcommand': 95,
  'src/guards/bash-validator/inspectors/inspect-git.ts inspectGit': 51,
  'src/guards/bash-validator/inspectors/inspect-package-managers.ts runPackageRunner': 59,
  'src/guards/bash-validator/inspectors/inspect-sed.ts command': 73,
  'src/guards/bash-validator/inspectors/inspect-shell.ts inspectShell': 57,
  'src/guards/bash-validator/walk-shell-file.ts command': 67,
  'src/model-server/build-codex-server-config.ts buildCodexServerConfig': 56,
  'src/model-server/check-expectations.ts checkExpectations': 56,
  'src/model-server/create-model-server.ts createModelServer': 62,
  'src/providers/github/create-github-provider.ts createGitHubProvider': 95,
  'src/providers/github/revisions/create-github-feedback.ts listFeedback': 92,
  'src/providers/github/revisions/push-patch-branch.ts pushPatchBranch': 63,
  'src/providers/github/setup/check-github-for-doctor.ts checkGitHubForDoctor': 79,
  'src/providers/github/setup/create-github-admin.ts check': 56,
  'src/providers/local/create-local-provider.ts createLocalProvider': 51,
  'src/providers/local/create-local-provider.ts mergeRevision': 55,
  'src/providers/local/git/integrate-revision.ts integrateRevision': 96,
  'src/providers/local/git/rebase-revision.ts rebaseRevision': 62,
  'src/providers/shared/create-branch-from-patch.ts createBranchFromPatch': 67,
  'src/runtimes/claude/provision-claude-run.ts provisionClaudeRun': 51,
  'src/runtimes/cli/prepare-cli-turn.ts prepareCliTurn': 52,
  'src/runtimes/codex/map-codex-event.ts mapCodexEvent': 62,
  'src/runtimes/codex/provision-codex-run.ts provisionCodexRun': 84,
  'src/runtimes/gemini/prepare-gemini-turn.ts onLine': 71,
  'src/runtimes/scripted/create-scripted-adapter.ts startAgent': 57,
  'src/sandbox/create-sandbox.ts wrapOn': 62,
  'src/sandbox/plan-sandbox-layout.ts planSandboxLayout': 71,
  'src/storage/engine-state/agent-run-repository.ts fromRow': 58,
  'src/storage/engine-state/budget-ledger-repository.ts createBudgetLedgerRepository': 53,
  'src/storage/engine-state/create-engine-state-persistence.ts <anonymous>': 67,
  'src/storage/migrations/002-local-tracker.ts up': 97,
  'src/storage/tracker/create-tracker-revisions.ts createTrackerRevisions': 77,
  'src/tui/components/footer.tsx Footer': 55,
  'src/tui/components/header.tsx Header': 63,
  'src/tui/dashboard-app.tsx DashboardApp': 117,
  'web/src/app.tsx App': 66,
  'web/src/app.tsx onKey': 67,
  'web/src/item-detail.tsx DetailBody': 142,
};

/** Files still over the limit, each with its size then; shrink them. */
const LONG_FILES: Readonly<Record<string, number>> = {
  'src/guards/bash-validator/walk-shell-file.ts': 610,
};

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
