import { describe, expect, it } from 'vitest';
import { buildTestState } from '../../../../test/support/shared/builders/index.ts';
import type { RuntimeParking } from '../../../domain/index.ts';
import { findNextAvailableAccount } from './find-next-available-account.ts';
import { findRuntimeParking } from './find-runtime-parking.ts';

const accounts = [
  { name: 'work', runtime: 'claude' },
  { name: 'spare', runtime: 'claude' },
  { name: 'third', runtime: 'claude' },
  { name: 'other', runtime: 'scripted' },
];

const exhausted = (account: string | null, until: number): RuntimeParking => ({
  key: account === null ? 'claude' : `claude/account:${account}`,
  runtime: 'claude',
  account,
  reason: 'usage-limit',
  until,
  since: 0,
  hits: 1,
  message: 'limit',
});

/** When a run was last requested on each account, as `accountsLastUsed` holds it. */
const used = (accountsLastUsed: Record<string, number>) => buildTestState({ accountsLastUsed });

describe('findNextAvailableAccount', () => {
  it('starts with the first configured account and stays on the one last used', () => {
    expect(findNextAvailableAccount(buildTestState({}), 'claude', accounts, 100)).toEqual({
      account: 'work',
      switchedFrom: null,
    });
    const state = used({ work: 1, spare: 2 });
    expect(findNextAvailableAccount(state, 'claude', accounts, 100)).toEqual({
      account: 'spare',
      switchedFrom: null,
    });
  });

  it('fails over to the least recently used available account when the current one is exhausted', () => {
    const state = {
      ...used({ third: 1, spare: 2, work: 3 }),
      parkings: { 'claude/account:work': exhausted('work', 500) },
    };
    expect(findNextAvailableAccount(state, 'claude', accounts, 100)).toEqual({
      account: 'third',
      switchedFrom: 'work',
    });
    // Once the reset has passed, the account is available again.
    expect(findNextAvailableAccount(state, 'claude', accounts, 500)).toEqual({
      account: 'work',
      switchedFrom: null,
    });
  });

  it('is null without accounts, or with all of them exhausted — then the runtime is parked until the earliest reset', () => {
    expect(findNextAvailableAccount(buildTestState({}), 'codex', accounts, 0)).toBeNull();
    const parkings = {
      'claude/account:work': exhausted('work', 900),
      'claude/account:spare': exhausted('spare', 300),
      'claude/account:third': exhausted('third', 600),
    };
    const state = { ...buildTestState({}), parkings };
    expect(findNextAvailableAccount(state, 'claude', accounts, 100)).toBeNull();
    expect(findRuntimeParking(state, 'claude', accounts, 100)?.until).toBe(300);
    expect(findRuntimeParking(state, 'claude', accounts, 300)).toBeNull();
    expect(findRuntimeParking(state, 'scripted', accounts, 100)).toBeNull();
    expect(findRuntimeParking({ parkings: { claude: exhausted(null, 50) } }, 'claude', [], 10)?.until).toBe(
      50,
    );
  });
});
