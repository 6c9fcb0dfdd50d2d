import { describe, expect, it } from 'vitest';
import { buildModelServerEnv } from './build-model-server-env.ts';

describe('buildModelServerEnv', () => {
  const baseEnv = {
    PATH: '/usr/bin',
    HOME: '/root',
    ANTHROPIC_API_KEY: 'sk-real-secret',
    ANTHROPIC_AUTH_TOKEN: 'token',
    ANTHROPIC_MODEL: 'some-model',
    CLAUDE_CODE_OAUTH_TOKEN: 'oauth',
    CLAUDE_CODE_USE_BEDROCK: '1',
    CLAUDECODE: '1',
    NO_PROXY: 'corp.example',
    UNDEFINED_VALUE: undefined,
  };

  it('points the CLI at the server with quiet traffic and isolated dirs', () => {
    const env = buildModelServerEnv({
      baseUrl: 'http://127.0.0.1:4321',
      stateDir: '/tmp/run-1',
      baseEnv,
      isRoot: false,
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4321',
      ANTHROPIC_API_KEY: 'dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CONFIG_DIR: '/tmp/run-1/config',
      CLAUDE_CODE_TMPDIR: '/tmp/run-1/tmp',
      NO_PROXY: 'corp.example,127.0.0.1,localhost',
      no_proxy: 'corp.example,127.0.0.1,localhost',
    });
  });

  it('sets IS_SANDBOX=1 as root and applies extra variables last', () => {
    const env = buildModelServerEnv({
      baseUrl: 'http://localhost:1',
      stateDir: '/tmp/x',
      baseEnv: {},
      isRoot: true,
      extra: { DISABLE_TELEMETRY: '0', MY_VAR: 'v' },
    });
    expect(env).toMatchObject({ IS_SANDBOX: '1', DISABLE_TELEMETRY: '0', MY_VAR: 'v' });
  });

  it('defaults to process.env and the current uid', () => {
    const env = buildModelServerEnv({ baseUrl: 'http://127.0.0.1:1', stateDir: '/tmp/x' });
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.IS_SANDBOX === '1').toBe(process.getuid?.() === 0);
  });

  it('refuses a server that is not on this machine', () => {
    expect(() => buildModelServerEnv({ baseUrl: 'https://api.anthropic.com', stateDir: '/tmp/x' })).toThrow(
      /not a local model server/,
    );
  });
});
