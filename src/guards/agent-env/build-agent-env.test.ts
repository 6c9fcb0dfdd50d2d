import { describe, expect, it } from 'vitest';
import { PLANTED_SECRETS } from '../../../test/support/shared/planted-secrets.ts';
import { buildAgentEnv } from './build-agent-env.ts';

const base = {
  PATH: '/usr/bin',
  HOME: '/home/dev',
  USER: 'dev',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm-256color',
  TZ: 'UTC',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
  GIT_AUTHOR_NAME: 'Dev',
  CLAUDE_CODE_MAX_RETRIES: '0',
  ANTHROPIC_API_KEY: 'sk-ant-keep',
  GH_TOKEN: 'gho_drop',
  DATABASE_PASSWORD: 'drop',
  FLOTILLA_GITHUB_PRIVATE_KEY: 'drop',
  // GitHub App authentication (src/providers/github/client/read-github-credentials.ts).
  FLOTILLA_GITHUB_APP_ID: '424242',
  FLOTILLA_GITHUB_APP_PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----drop',
  FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE: '/secrets/app.pem',
  FLOTILLA_GITHUB_APP_INSTALLATION_ID: '777',
  SOME_TOOL_SETTING: 'not secret, but not listed either',
  UNSET: undefined,
  ...PLANTED_SECRETS,
};

describe('buildAgentEnv', () => {
  it('keeps the base variables, model access and Claude settings; nothing else', () => {
    const env = buildAgentEnv({ baseEnv: base, runStateDir: '/state/run-1', isRoot: false });
    expect(env).toMatchObject({
      PATH: '/usr/bin',
      HOME: '/home/dev',
      USER: 'dev',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm-256color',
      TZ: 'UTC',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
      GIT_AUTHOR_NAME: 'Dev',
      CLAUDE_CODE_MAX_RETRIES: '0',
      ANTHROPIC_API_KEY: 'sk-ant-keep',
    });
    const kept = Object.keys(base).filter((name) => name in env);
    expect(kept.sort()).toEqual(
      [
        'PATH',
        'HOME',
        'USER',
        'LANG',
        'LC_ALL',
        'TERM',
        'TZ',
        'NODE_EXTRA_CA_CERTS',
        'GIT_AUTHOR_NAME',
        'CLAUDE_CODE_MAX_RETRIES',
        'ANTHROPIC_API_KEY',
      ].sort(),
    );
  });

  it('lets no planted secret through, by name or by value', () => {
    const env = buildAgentEnv({ baseEnv: base, runStateDir: '/state/run-1', isRoot: true });
    const text = JSON.stringify(env);
    for (const [name, value] of Object.entries(PLANTED_SECRETS)) {
      expect(env, name).not.toHaveProperty(name);
      expect(text, name).not.toContain(value);
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

  it('sets IS_SANDBOX for root, and honours passThrough, passEnv and extra variables', () => {
    const env = buildAgentEnv({
      baseEnv: base,
      runStateDir: '/s',
      isRoot: true,
      passThrough: ['NPM_TOKEN'],
      passEnv: ['SOME_TOOL_SETTING', 'NOT_SET_ANYWHERE'],
      extra: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(env.IS_SANDBOX).toBe('1');
    expect(env.NPM_TOKEN).toBe(PLANTED_SECRETS.NPM_TOKEN);
    expect(env.SOME_TOOL_SETTING).toBe(base.SOME_TOOL_SETTING);
    expect(env).not.toHaveProperty('NOT_SET_ANYWHERE');
    expect(env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9');
  });

  it("an account's credential replaces the ambient one, read from Flotilla's environment", () => {
    const env = buildAgentEnv({
      baseEnv: { ...base, WORK_KEY: 'sk-ant-work' },
      runStateDir: '/s',
      isRoot: false,
      account: { name: 'work', env: { ANTHROPIC_API_KEY: '$WORK_KEY' }, allSources: ['WORK_KEY'] },
    });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-work');
    expect(env).not.toHaveProperty('WORK_KEY');
  });
});
