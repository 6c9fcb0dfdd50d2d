import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startThrowawayHome, TEST_GIT_CONFIG } from './throwaway-home.ts';

describe('the throwaway HOME (vitest global setup)', () => {
  it("is what this run's processes see: not the user's home", () => {
    expect(process.env.HOME).not.toBe(userInfo().homedir);
  });

  it('sets HOME to a new directory holding only a git identity; the teardown restores HOME and removes it', () => {
    const before = process.env.HOME;
    const teardown = startThrowawayHome();
    const home = process.env.HOME ?? '';
    try {
      expect(home).not.toBe(before);
      expect(readdirSync(home)).toEqual(['.gitconfig']);
      expect(readFileSync(join(home, '.gitconfig'), 'utf8')).toBe(TEST_GIT_CONFIG);
    } finally {
      teardown();
    }
    expect(process.env.HOME).toBe(before);
    expect(existsSync(home)).toBe(false);
  });
});
