import type { AgentResult } from '../../domain/index.ts';
import type { AgentTurn, TurnRun } from './agent-turn.ts';
import type { ActiveRun } from './create-run-registry.ts';
import { startFixRound } from './run-validation-round.ts';

/**
 * Plays a run's rounds to its end: each round the turn plays and settles; a failed validation round (thrown
 * out of `run.patch`) becomes a fix round with the errors, up to `maxFixRounds`; `again` (a re-prompt) is
 * one more round; an abort ends the run as that. Resolves with the role's result or the agent's questions.
 */
export async function playRounds(params: {
  turn: AgentTurn;
  turnRun: TurnRun;
  run: ActiveRun;
  maxFixRounds: number;
  /** What a fix round resumes, for its announcement (`session`, `thread`). */
  continues: string;
}): Promise<AgentResult | { kind: 'questions'; questions: string[] }> {
  const { turn, turnRun, run } = params;
  const { clock } = turnRun;
  for (let round = 0, prompt = turn.firstPrompt(turnRun); ; round += 1) {
    clock.lap(round === 0 ? 'session-setup' : 'fix-round-setup');
    const end = await turn.play(turnRun, prompt, round);
    if (run.abortReason) throw run.abortFailure(run.abortReason);
    try {
      const verdict = await clock.time('result-and-patch', () => turn.settle(turnRun, end, round));
      if (verdict.kind === 'result') return verdict.result;
      if (verdict.kind === 'questions') return verdict;
      prompt = verdict.prompt;
    } catch (error) {
      prompt = startFixRound({
        error,
        round,
        maxRounds: params.maxFixRounds,
        aborted: run.abortReason !== null,
        resumed: params.continues,
        announce: turnRun.announce,
      });
      turnRun.sessionLog?.record({ type: 'user', message: { role: 'user', content: prompt } });
    }
  }
}
