import { describe, expect, it } from 'vitest';
import { buildAgentEnv } from './build-agent-env.ts';

const base = {
  PATH: '/usr/bin',
  HOME: '/home/dev',
  ANTHROPIC_API_KEY: 'sk-ant-keep',
  GITHUB_TOKEN: 'ghp_drop',
  // The GitHub provider's token (src/providers/github/): never an agent's.
  FLOTILLA_GITHUB_TOKEN: 'ghp_flotilla_drop',
  GH_TOKEN: 'gho_drop',
  AWS_SECRET_ACCESS_KEY: 'drop',
  DATABASE_PASSWORD: 'drop',
  NPM_TOKEN: 'drop',
  FLOTILLA_GITHUB_PRIVATE_KEY: 'drop',
  // GitHub App authentication (src/providers/github/client/read-github-credentials.ts).
  FLOTILLA_GITHUB_APP_ID: '424242',
  FLOTILLA_GITHUB_APP_PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----drop',
  FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE: '/secrets/app.pem',
  FLOTILLA_GITHUB_APP_INSTALLATION_ID: '777',
  UNSET: undefined,
};

describe('buildAgentEnv', () => {
  it('keeps ordinary variables and model access, drops credentials the agent does not need', () => {
    const env = buildAgentEnv({ baseEnv: base, runStateDir: '/state/run-1', isRoot: false });
    expect(env.PATH).toBe('/usr/bin');
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-keep');
    for (const name of [
      'GITHUB_TOKEN',
      'FLOTILLA_GITHUB_TOKEN',
      'GH_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'DATABASE_PASSWORD',
      'NPM_TOKEN',
      'FLOTILLA_GITHUB_PRIVATE_KEY',
      'FLOTILLA_GITHUB_APP_ID',
      'FLOTILLA_GITHUB_APP_PRIVATE_KEY',
      'FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE',
      'FLOTILLA_GITHUB_APP_INSTALLATION_ID',
      'UNSET',
    ]) {
      expect(env).not.toHaveProperty(name);
    }
  });

  it('sets the quiet-traffic variables and per-run CLI directories', () => {
    const env = buildAgentEnv({ baseEnv: base, runStateDir: '/state/run-1', isRoot: false });
    expect(env).toMatchObject({
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CONFIG_DIR: '/state/run-1/config',
      CLAUDE_CODE_TMPDIR: '/state/run-1/tmp',
    });
    expect(env).not.toHaveProperty('IS_SANDBOX');
  });

  it('sets IS_SANDBOX for root, and honours pass-through and extra variables', () => {
    const env = buildAgentEnv({
      baseEnv: base,
      runStateDir: '/s',
      isRoot: true,
      passThrough: ['NPM_TOKEN'],
      extra: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(env.IS_SANDBOX).toBe('1');
    expect(env.NPM_TOKEN).toBe('drop');
    expect(env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9');
  });
});
