import type { AgentRun } from '../../domain/index.ts';

/**
 * The sessions of one run (issue #28 §5), oldest first: a run that asked a human stops; each answer resumes
 * it as a new session of the same role and item numbered one higher (`sessionNumber`, absent = 1). From any
 * of them this walks back to session 1 and on to the last resume: a session's predecessor is the latest run
 * of the same role and item started before it whose number is one lower and that ended by asking; its
 * successor the earliest one after it, one higher, when it asked. Planner runs have no item: any planner
 * session is its role's.
 */
export function buildRunSessionChain<Run extends AgentRun>(runs: readonly Run[], target: Run): Run[] {
  const sameRun = runs
    .filter((run) => run.role === target.role && itemOf(run) === itemOf(target))
    .sort((a, b) => a.requestedAt - b.requestedAt);
  const chain = [target];
  for (let current = target; numberOf(current) > 1; ) {
    const previous = sameRun
      .filter(
        (run) =>
          run.requestedAt < current.requestedAt &&
          numberOf(run) === numberOf(current) - 1 &&
          run.askedQuestions === true,
      )
      .at(-1);
    if (previous === undefined) break;
    chain.unshift(previous);
    current = previous;
  }
  for (let current = target; current.askedQuestions === true; ) {
    const next = sameRun.find(
      (run) => run.requestedAt > current.requestedAt && numberOf(run) === numberOf(current) + 1,
    );
    if (next === undefined) break;
    chain.push(next);
    current = next;
  }
  return chain;
}

function numberOf(run: AgentRun): number {
  return run.sessionNumber ?? 1;
}

function itemOf(run: AgentRun): string | null {
  return run.role === 'planner' ? null : run.workItemID;
}
