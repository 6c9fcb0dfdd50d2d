import { describe, expect, it } from 'vitest';
import { PLANTED_SECRETS } from '../../../test/support/shared/planted-secrets.ts';
import { buildCodexEnv, buildCodexValidationEnv } from './build-codex-env.ts';

describe('buildCodexEnv', () => {
  const baseEnv = {
    PATH: '/usr/bin',
    HOME: '/root',
    OPENAI_API_KEY: 'sk-model',
    GITHUB_TOKEN: 'ghp',
    AWS_SECRET_ACCESS_KEY: 'aws',
    ANTHROPIC_API_KEY: 'ant',
    CODEX_HOME: '/root/.codex',
    MY_DB_PASSWORD: 'pw',
    NO_PROXY: 'corp.example',
  };

  it('keeps the model key and ordinary variables, drops other credentials, sets CODEX_HOME', () => {
    const env = buildCodexEnv({
      baseEnv,
      codexHome: '/repo/.flotilla/codex/runs/s1/home',
      modelKeyVariables: ['OPENAI_API_KEY'],
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      OPENAI_API_KEY: 'sk-model',
      CODEX_HOME: '/repo/.flotilla/codex/runs/s1/home',
      NO_PROXY: 'corp.example,127.0.0.1,localhost',
      no_proxy: 'corp.example,127.0.0.1,localhost',
    });
  });

  it('lets no planted secret through, by name or by value; passEnv names one on purpose', () => {
    const env = buildCodexEnv({
      baseEnv: { ...baseEnv, ...PLANTED_SECRETS, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', LC_ALL: 'C' },
      codexHome: '/h',
      modelKeyVariables: ['OPENAI_API_KEY'],
      passEnv: ['SENTRY_DSN'],
    });
    expect(env).toMatchObject({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', LC_ALL: 'C', CODEX_HOME: '/h' });
    expect(env.SENTRY_DSN).toBe(PLANTED_SECRETS.SENTRY_DSN);
    const text = JSON.stringify(env);
    for (const [name, value] of Object.entries(PLANTED_SECRETS)) {
      if (name === 'SENTRY_DSN' || name === 'CODEX_HOME') continue;
      expect(env, name).not.toHaveProperty(name);
      expect(text, name).not.toContain(value);
    }
  });

  it('passes a named variable through on purpose; validation commands lose the model key', () => {
    const env = buildCodexEnv({
      baseEnv,
      codexHome: '/h',
      modelKeyVariables: ['OPENAI_API_KEY'],
      passThrough: ['MY_DB_PASSWORD'],
    });
    expect(env.MY_DB_PASSWORD).toBe('pw');
    const validation = buildCodexValidationEnv(env, ['OPENAI_API_KEY']);
    expect(validation.OPENAI_API_KEY).toBeUndefined();
    expect(validation.CODEX_HOME).toBeUndefined();
    expect(validation.PATH).toBe('/usr/bin');
  });
});
