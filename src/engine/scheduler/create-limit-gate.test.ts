import { describe, expect, it } from 'vitest';
import { buildTestState, buildWorkItem } from '../../../test/support/shared/builders/index.ts';
import type { AgentRunRequestCommand, RuntimeParking } from '../../domain/index.ts';
import { systemClock } from '../engine-config.ts';
import type { RuntimeAdapter, RuntimeAdapters } from '../runtime-contract/index.ts';
import { createLimitGate } from './create-limit-gate.ts';

const adapter = (runtime: string): RuntimeAdapter => ({
  runtime,
  startAgent: () => Promise.reject(new Error('not started in this test')),
  cancelAgent: () => {},
});

const claude = adapter('claude');
// A `namedRuntimes` entry: the user's name `mine` for a CLI runtime, whose runs record `cli:aider`.
const choices: Record<string, RuntimeAdapter> = {
  claude,
  codex: adapter('codex'),
  mine: adapter('cli:aider'),
};
const adapters: RuntimeAdapters = {
  planner: claude,
  implementor: claude,
  reviewer: claude,
  choices: { names: Object.keys(choices), get: (name) => choices[name] ?? null },
};

const parked = (runtime: string, account: string | null, until: number): RuntimeParking => ({
  key: account === null ? runtime : `${runtime}/account:${account}`,
  runtime,
  account,
  reason: 'usage-limit',
  until,
  since: 0,
  hits: 1,
  message: 'limit',
});

const implement = (workItemID: string): AgentRunRequestCommand => ({
  type: 'requestImplementorRun',
  workItemID,
});

function stateWith(parkings: RuntimeParking[]) {
  return {
    ...buildTestState({
      workItems: [
        buildWorkItem({ id: 'plain' }),
        buildWorkItem({ id: 'on-codex', runtime: 'codex' }),
        buildWorkItem({ id: 'on-mine', runtime: 'mine' }),
        buildWorkItem({ id: 'on-nothing', runtime: 'nothing' }),
      ],
    }),
    parkings: Object.fromEntries(parkings.map((parking) => [parking.key, parking])),
  };
}

describe('createLimitGate', () => {
  const gate = createLimitGate({
    adapters,
    accounts: [
      { name: 'work', runtime: 'claude' },
      { name: 'openai', runtime: 'codex' },
    ],
    clock: { ...systemClock, now: () => 100 },
  });

  it('holds only the runs that would use the parked runtime: a label chooses it', () => {
    const codexParked = stateWith([parked('codex', null, 500)]);
    expect(gate.parkedUntil(implement('on-codex'), codexParked)).toBe(500);
    expect(gate.parkedUntil(implement('plain'), codexParked)).toBeNull();
    expect(
      gate.parkedUntil({ type: 'requestPlannerRun', specPaths: [], specSHAs: {} }, codexParked),
    ).toBeNull();

    const claudeParked = stateWith([parked('claude', null, 700)]);
    expect(gate.parkedUntil(implement('plain'), claudeParked)).toBe(700);
    expect(gate.parkedUntil(implement('on-codex'), claudeParked)).toBeNull();
    // An unknown label is refused at start; meanwhile it counts as the role's runtime.
    expect(gate.parkedUntil(implement('on-nothing'), claudeParked)).toBe(700);
  });

  it('knows a named runtime by the name its runs record', () => {
    const aiderParked = stateWith([parked('cli:aider', null, 900)]);
    expect(gate.parkedUntil(implement('on-mine'), aiderParked)).toBe(900);
    expect(gate.parkedUntil(implement('plain'), aiderParked)).toBeNull();
  });

  it('gives a labelled run an account of its own runtime, and parks on that account running out', () => {
    const none = stateWith([]);
    expect(gate.chooseAccount(implement('on-codex'), none)).toEqual({
      account: 'openai',
      switchedFrom: null,
    });
    expect(gate.chooseAccount(implement('plain'), none)).toEqual({ account: 'work', switchedFrom: null });
    const openaiOut = stateWith([parked('codex', 'openai', 800)]);
    expect(gate.parkedUntil(implement('on-codex'), openaiOut)).toBe(800);
    expect(gate.parkedUntil(implement('plain'), openaiOut)).toBeNull();
  });
});
