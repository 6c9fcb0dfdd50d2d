import { describe, expect, it } from 'vitest';
import { buildGeminiEnv, buildGeminiValidationEnv } from './build-gemini-env.ts';

describe('buildGeminiEnv', () => {
  const baseEnv = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    GEMINI_API_KEY: 'gem-key',
    GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
    ANTHROPIC_API_KEY: 'sk-ant',
    OPENAI_API_KEY: 'sk-openai',
    GITHUB_TOKEN: 'ghp_x',
    DATABASE_URL: 'postgres://secret',
    MY_SETTING: 'on',
  };

  it('keeps the base variables, its key and endpoint, and gives it the run home; nothing else', () => {
    const env = buildGeminiEnv({ baseEnv, home: '/state/runs/r1/home' });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/state/runs/r1/home',
      GEMINI_CLI_HOME: '/state/runs/r1/home',
      GEMINI_API_KEY: 'gem-key',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
      GEMINI_CLI_NO_RELAUNCH: 'true',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      NO_COLOR: '1',
    });
  });

  it('adds what the user passes and the extra variables last', () => {
    const env = buildGeminiEnv({
      baseEnv,
      home: '/h',
      passEnv: ['MY_SETTING'],
      extra: { FLOTILLA_PORT: '4100' },
    });
    expect(env.MY_SETTING).toBe('on');
    expect(env.FLOTILLA_PORT).toBe('4100');
  });

  it('leaves the key out of the validation commands', () => {
    const env = buildGeminiValidationEnv(
      buildGeminiEnv({ baseEnv: { ...baseEnv, GOOGLE_API_KEY: 'g' }, home: '/h' }),
    );
    expect(env.GEMINI_API_KEY).toBeUndefined();
    expect(env.GOOGLE_API_KEY).toBeUndefined();
    expect(env.PATH).toBe('/usr/bin');
  });
});
