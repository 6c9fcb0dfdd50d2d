import { expect } from 'vitest';
import type { ControlPlane } from '../../src/app/create-control-plane.ts';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { WaitingSession } from '../../src/domain/index.ts';
import { waitUntil } from './claude-adapter-fixture.ts';

type RecordedRun = ReturnType<ControlPlane['persistence']['listRuns']>[number];

/**
 * Plays the human in buildQuestionsScenario's loop on a started control plane: waits for the item to wait
 * for input, runs `whileWaiting` on the waiting entry (checks on the kept session), answers with `flotilla
 * answer`, waits for the item's approval, and expects its implementor runs to be the asking session, then the
 * resumed one. Returns the waiting entry and those runs, oldest first.
 */
export async function answerWaitingImplementor(
  controlPlane: ControlPlane,
  repoRoot: string,
  answer: string,
  whileWaiting: (waiting: WaitingSession) => void,
): Promise<{ waiting: WaitingSession; implementorRuns: RecordedRun[] }> {
  const state = () => controlPlane.engine.getState();
  await waitUntil(
    () => Object.values(state().workItems).some((item) => item.status === 'waiting-for-input'),
    90_000,
    'the item to wait for input',
  );
  const waiting = Object.values(state().waitingForInput)[0];
  if (waiting === undefined) throw new Error('no waiting session');
  whileWaiting(waiting);
  const answered = await runFlotillaInProcess(repoRoot, ['answer', waiting.workItemID, answer]);
  expect(answered.code).toBe(0);

  await waitUntil(
    () => state().workItems[waiting.workItemID]?.status === 'approved',
    90_000,
    'the answered item to be approved',
  );
  const implementorRuns = controlPlane.persistence
    .listRuns({ workItemID: waiting.workItemID })
    .filter((run) => run.role === 'implementor')
    .reverse();
  expect(
    implementorRuns.map((run) => [run.sessionNumber ?? 1, run.askedQuestions === true, run.status]),
  ).toEqual([
    [1, true, 'completed'],
    [2, false, 'completed'],
  ]);
  return { waiting, implementorRuns };
}
