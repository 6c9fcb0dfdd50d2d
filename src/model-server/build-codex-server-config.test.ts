import { describe, expect, it } from 'vitest';
import { buildCodexServerConfig } from './build-codex-server-config.ts';

describe('buildCodexServerConfig', () => {
  const baseEnv = {
    PATH: '/usr/bin',
    HOME: '/root',
    OPENAI_API_KEY: 'sk-real-secret',
    OPENAI_BASE_URL: 'https://api.openai.com/v1',
    CODEX_API_KEY: 'sk-codex',
    CODEX_HOME: '/root/.codex',
    AZURE_OPENAI_API_KEY: 'azure',
    ANTHROPIC_API_KEY: 'sk-ant',
    NO_PROXY: 'corp.example',
    UNDEFINED_VALUE: undefined,
  };

  it('writes a scripted Responses provider with the outside traffic switched off', () => {
    const { configToml } = buildCodexServerConfig({
      baseUrl: 'http://127.0.0.1:4321/',
      codexHome: '/tmp/codex-home',
      model: 'scripted',
      baseEnv,
      requestMaxRetries: 0,
    });
    expect(configToml.split('\n')).toEqual(
      expect.arrayContaining([
        'model = "scripted"',
        'model_provider = "flotilla-scripted"',
        'check_for_update_on_startup = false',
        'web_search = "disabled"',
        '[analytics]',
        '[feedback]',
        '[features]',
        'plugins = false',
        '[model_providers.flotilla-scripted]',
        'base_url = "http://127.0.0.1:4321/v1"',
        'env_key = "FLOTILLA_SCRIPTED_API_KEY"',
        'wire_api = "responses"',
        'supports_websockets = false',
        'request_max_retries = 0',
      ]),
    );
    expect(configToml).not.toContain('stream_max_retries');
    expect(configToml).not.toContain('[sandbox_workspace_write]');
    // Root keys must come before the first table, or TOML puts them inside it.
    const lines = configToml.split('\n');
    expect(lines.indexOf('web_search = "disabled"')).toBeLessThan(
      lines.findIndex((line) => line.startsWith('[')),
    );
  });

  it('gives the child CODEX_HOME and a dummy key, and no real credentials', () => {
    const { env } = buildCodexServerConfig({
      baseUrl: 'http://localhost:4321',
      codexHome: '/tmp/codex-home',
      baseEnv,
      model: 'gpt-scripted',
      extra: { EXTRA: '1' },
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      CODEX_HOME: '/tmp/codex-home',
      FLOTILLA_SCRIPTED_API_KEY: 'dummy',
      NO_PROXY: 'corp.example,127.0.0.1,localhost',
      no_proxy: 'corp.example,127.0.0.1,localhost',
      EXTRA: '1',
    });
  });

  it('can keep the sandbox from writing to /tmp and $TMPDIR', () => {
    const { configToml } = buildCodexServerConfig({
      baseUrl: 'http://127.0.0.1:1',
      codexHome: '/tmp/x',
      model: 'scripted',
      baseEnv: {},
      writableTmp: false,
    });
    expect(configToml).toContain(
      '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n',
    );
  });

  it('can route every outside connection to the server as a proxy tripwire', () => {
    const { env } = buildCodexServerConfig({
      baseUrl: 'http://127.0.0.1:4321',
      codexHome: '/tmp/x',
      model: 'scripted',
      baseEnv: { https_proxy: 'http://corp-proxy:3128' },
      proxyTripwire: true,
    });
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy']) {
      expect(env[name]).toBe('http://127.0.0.1:4321');
    }
    expect(env.NO_PROXY).toBe('127.0.0.1,localhost');
  });

  it('quotes values as TOML strings', () => {
    const { configToml } = buildCodexServerConfig({
      baseUrl: 'http://127.0.0.1:1',
      codexHome: '/tmp/x',
      baseEnv: {},
      model: 'a "quoted" \\ model',
    });
    expect(configToml).toContain('model = "a \\"quoted\\" \\\\ model"');
  });

  it('refuses a server that is not on 127.0.0.1 or localhost', () => {
    expect(() =>
      buildCodexServerConfig({ baseUrl: 'https://api.openai.com', codexHome: '/tmp/x', model: 'scripted' }),
    ).toThrow(
      'buildCodexServerConfig: https://api.openai.com is not a local model server (127.0.0.1 or localhost)',
    );
  });
});
