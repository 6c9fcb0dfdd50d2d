import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import type { WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import { extractPatch } from '../../workspace/extract-patch.ts';
import type { TurnRun, TurnSetup } from './agent-turn.ts';
import { createValidationWrapper } from './build-agent-sandbox-request.ts';
import type { ActiveRun } from './create-run-registry.ts';
import { runValidationRound, type ValidationSettings } from './run-validation-round.ts';

/**
 * The run as its turn sees it once registered: the setup, the registry's abort state and live output, the
 * transcript, and the implementor's patch (validation commands first, in the run's sandbox).
 */
export function buildTurnRun(params: {
  config: {
    repoRoot: string;
    sandbox?: Sandbox | undefined;
    validation?: ValidationSettings | undefined;
    protectedPaths?: readonly string[] | undefined;
  };
  worktrees: WorktreeManager;
  setup: TurnSetup;
  run: ActiveRun;
  sessionLog: SessionLog | null;
  markStarted: () => void;
  validationEnv: Readonly<Record<string, string>> | undefined;
}): TurnRun {
  const { config, setup, run, sessionLog } = params;
  const { worktree } = setup;
  const validation =
    worktree !== null && config.validation !== undefined && config.validation.commands.length > 0
      ? config.validation
      : null;
  const announce = (line: string) => {
    run.output.push(`${line}\n`);
    sessionLog?.note(line);
    run.notifyActivity();
  };
  return {
    ...setup,
    signal: run.signal,
    get abortReason() {
      return run.abortReason;
    },
    abortFailure: run.abortFailure,
    sessionLog,
    output: (text) => run.output.push(text),
    announce,
    notifyActivity: run.notifyActivity,
    markStarted: params.markStarted,
    async patch(round) {
      if (worktree === null) return '';
      if (validation !== null) {
        await runValidationRound({
          validation,
          round,
          cwd: worktree.path,
          env: params.validationEnv ?? {},
          signal: run.signal,
          announce,
          notifyActivity: run.notifyActivity,
          wrap: createValidationWrapper(config.sandbox, {
            repoRoot: config.repoRoot,
            worktree: worktree.path,
            runStateDir: setup.runDir,
          }),
        });
      }
      return extractPatch({
        worktreePath: worktree.path,
        baseCommit: worktree.baseCommit,
        ...(config.protectedPaths !== undefined && { protectedPaths: config.protectedPaths }),
        localFiles: worktree.localFiles ?? params.worktrees.localFiles ?? [],
      });
    },
  };
}
