import { existsSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { useThrowawayHome } from './throwaway-home.ts';

describe('the throwaway HOME (vitest global setup)', () => {
  it("is what this run's processes see: not the user's home", () => {
    expect(process.env.HOME).not.toBe(userInfo().homedir);
  });

  it('sets HOME to a new empty directory, and the teardown restores HOME and removes it', () => {
    const before = process.env.HOME;
    const teardown = useThrowawayHome();
    const home = process.env.HOME ?? '';
    try {
      expect(home).not.toBe(before);
      expect(readdirSync(home)).toEqual([]);
    } finally {
      teardown();
    }
    expect(process.env.HOME).toBe(before);
    expect(existsSync(home)).toBe(false);
  });
});
