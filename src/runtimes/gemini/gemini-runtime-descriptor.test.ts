import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAME, loadConfig } from '../../config/index.ts';
import { findRuntime } from '../registry.ts';
import { geminiRuntime } from './gemini-runtime-descriptor.ts';

describe('the gemini runtime descriptor', () => {
  it('is in the registry, and flotilla.config.json accepts "gemini" for roles and named runtimes', async () => {
    expect(findRuntime('gemini')).toBe(geminiRuntime);
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-gemini-config-'));
    try {
      await writeFile(
        join(dir, CONFIG_FILE_NAME),
        JSON.stringify({
          runtimes: { planner: 'claude', implementor: 'gemini', reviewer: 'gemini' },
          namedRuntimes: { google: 'gemini' },
        }),
      );
      const loaded = await loadConfig(dir);
      if (!loaded.ok) throw new Error(loaded.errors.join('; '));
      expect(loaded.config.runtimes.implementor).toBe('gemini');
      expect(loaded.config.namedRuntimes?.google).toBe('gemini');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is available with gemini-cli installed and a key; without a key it says which to set', () => {
    const check = (env: Record<string, string>) =>
      geminiRuntime.checkAvailability?.({ settings: 'gemini', env, cwd: process.cwd() });
    expect(check({ GEMINI_API_KEY: 'k' })).toEqual({ available: true });
    expect(check({ GOOGLE_API_KEY: 'k' })).toEqual({ available: true });
    expect(check({ GEMINI_API_KEY: '' })).toEqual({
      available: false,
      problems: ['no Gemini API key for gemini: set GEMINI_API_KEY or GOOGLE_API_KEY'],
    });
  });
});
