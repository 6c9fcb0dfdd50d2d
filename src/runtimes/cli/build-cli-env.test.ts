import { describe, expect, it } from 'vitest';
import { PLANTED_SECRETS } from '../../../test/support/shared/planted-secrets.ts';
import { buildCliEnv } from './build-cli-env.ts';

const baseEnv = {
  PATH: '/usr/bin',
  HOME: '/home/dev',
  ANTHROPIC_API_KEY: 'sk-ant-model',
  GEMINI_API_KEY: 'gemini-model',
  FAKE_AGENT_SCRIPT: '/tmp/script.json',
  ...PLANTED_SECRETS,
};

describe('buildCliEnv', () => {
  it("keeps the base variables and the preset's own credential, nothing else", () => {
    const env = buildCliEnv({ baseEnv, runStateDir: '/s', isRoot: false, credentialEnv: ['GEMINI_API_KEY'] });
    expect(env).toMatchObject({ PATH: '/usr/bin', HOME: '/home/dev', GEMINI_API_KEY: 'gemini-model' });
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env).not.toHaveProperty('FAKE_AGENT_SCRIPT');
    const text = JSON.stringify(env);
    for (const [name, value] of Object.entries(PLANTED_SECRETS)) {
      expect(env, name).not.toHaveProperty(name);
      expect(text, name).not.toContain(value);
    }
  });

  it('adds what passThrough and passEnv name, and the claude preset keeps its key', () => {
    const env = buildCliEnv({
      baseEnv,
      runStateDir: '/s',
      isRoot: false,
      credentialEnv: ['ANTHROPIC_API_KEY'],
      passThrough: ['FAKE_AGENT_SCRIPT'],
      passEnv: ['REDIS_URL'],
    });
    expect(env).toMatchObject({
      ANTHROPIC_API_KEY: 'sk-ant-model',
      FAKE_AGENT_SCRIPT: '/tmp/script.json',
      REDIS_URL: PLANTED_SECRETS.REDIS_URL,
    });
    expect(env).not.toHaveProperty('GEMINI_API_KEY');
  });
});
