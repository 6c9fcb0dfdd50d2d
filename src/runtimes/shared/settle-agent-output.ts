import { isReadOnlyMode, type WorkItemMode } from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentStartParams,
  validateAgentOutputOrQuestions,
  validateModeOutputOrQuestions,
} from '../../engine/runtime-contract/index.ts';
import { runGit } from '../../process/run-command.ts';
import type { RoundEnd } from './agent-turn.ts';
import { finishAgentResult } from './finish-agent-result.ts';

/** The read-only mode an implementor run is in (`investigate`, `refine`; issue #29), or undefined. */
export function readOnlyModeOf(params: AgentStartParams): WorkItemMode | undefined {
  return params.role === 'implementor' && isReadOnlyMode(params.mode) ? params.mode : undefined;
}

/** What `git status` and HEAD say about a worktree: equal snapshots mean nothing in it changed. */
async function worktreeState(cwd: string): Promise<string> {
  const head = await runGit(['rev-parse', 'HEAD'], { cwd });
  const status = await runGit(['status', '--porcelain=v1', '--untracked-files=all'], { cwd });
  return `${head.stdout.trim()}\n${status.stdout}`;
}

/**
 * The last check of a read-only run (after the OS sandbox, which binds its worktree read-only): its
 * worktree is exactly as it was before the agent started. `snapshot()` before the agent, `verify()` after;
 * a change fails the run, naming the mode (fail closed: a sandbox that was off or misconfigured is caught).
 */
export function createReadOnlyWorktreeCheck(cwd: string, mode: WorkItemMode) {
  let before: string | null = null;
  return {
    async snapshot(): Promise<void> {
      before = await worktreeState(cwd);
    },
    async verify(): Promise<void> {
      const after = await worktreeState(cwd);
      if (before === null || after !== before) {
        throw new AgentRunFailure(
          'error',
          `the ${mode} run changed its worktree, which read-only modes never do (refused): ` +
            `${after.split('\n').slice(1).join(' ').trim() || 'HEAD moved'}`,
        );
      }
    },
  };
}

/**
 * A round's structured output (parsed JSON) as the round's end, for runtimes that read it themselves
 * (codex's final message, gemini's, a CLI agent's signal file): a read-only mode's report — the worktree
 * checked unchanged, no patch — or the role's result (an implementor's patch from `patch()`), or the
 * agent's questions. Invalid output fails with reason `error`, naming the field.
 */
export async function settleAgentOutput(input: {
  params: AgentStartParams;
  output: unknown;
  /** Takes a completed implementor's patch; null: it has no worktree, so no patch (the result as it is). */
  patch: (() => Promise<string>) | null;
  readOnlyCheck?: { verify(): Promise<void> } | undefined;
}): Promise<RoundEnd> {
  const { params, output } = input;
  const mode = readOnlyModeOf(params);
  if (mode !== undefined) {
    // An agent asking a human in a mode answers the implementor's questions shape (codex's strict schema
    // has no `role` in a mode: it is added here).
    const asks = (output as { outcome?: unknown } | null)?.outcome === 'questions';
    const validated = validateModeOutputOrQuestions(
      mode,
      asks ? { role: 'implementor', ...(output as object) } : output,
    );
    if (!validated.ok) throw new AgentRunFailure('error', validated.error);
    await input.readOnlyCheck?.verify();
    if (validated.value.kind === 'questions')
      return { kind: 'questions', questions: validated.value.questions };
    const { report } = validated.value;
    return {
      kind: 'result',
      result: { role: 'implementor', outcome: 'completed', summary: report.summary, patch: null, report },
    };
  }
  const validated = validateAgentOutputOrQuestions(params.role, output);
  if (!validated.ok) throw new AgentRunFailure('error', validated.error);
  if (validated.value.kind === 'questions')
    return { kind: 'questions', questions: validated.value.questions };
  const { output: result } = validated.value;
  if (input.patch === null)
    return { kind: 'result', result: result.role === 'implementor' ? { ...result, patch: null } : result };
  return { kind: 'result', result: await finishAgentResult(result, input.patch) };
}
