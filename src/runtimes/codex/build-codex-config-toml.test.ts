import { describe, expect, it } from 'vitest';
import { buildCodexConfigToml } from './build-codex-config-toml.ts';

describe('buildCodexConfigToml', () => {
  it('switches outside traffic off and keeps credentials, network and /tmp away from commands', () => {
    const toml = buildCodexConfigToml({ developerInstructions: 'Be "exact".\nAlways.' });
    expect(toml).toContain('developer_instructions = "Be \\"exact\\".\\nAlways."');
    for (const line of [
      '[analytics]\nenabled = false',
      '[features]\nplugins = false',
      'check_for_update_on_startup = false',
      'web_search = "disabled"',
      '[shell_environment_policy]\ninherit = "core"\nignore_default_excludes = false',
      '"*KEY*", "*TOKEN*", "*SECRET*"',
      'network_access = false\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true',
    ]) {
      expect(toml).toContain(line);
    }
    expect(toml).not.toContain('model_provider');
  });

  it('declares a custom Responses provider without WebSockets', () => {
    const toml = buildCodexConfigToml({
      developerInstructions: 'x',
      model: 'gpt-5',
      provider: { id: 'local', baseUrl: 'http://127.0.0.1:9/v1', envKey: 'LOCAL_KEY', requestMaxRetries: 1 },
    });
    expect(toml).toContain('model = "gpt-5"\nmodel_provider = "local"');
    expect(toml).toContain(
      '[model_providers.local]\nname = "local"\nbase_url = "http://127.0.0.1:9/v1"\nenv_key = "LOCAL_KEY"\n' +
        'wire_api = "responses"\nsupports_websockets = false\nrequest_max_retries = 1',
    );
  });

  it("declares Flotilla's tool server: required, its tools approved, long enough for an ask", () => {
    const toml = buildCodexConfigToml({
      developerInstructions: 'x',
      toolServer: { command: '/runs/r1/bin/flotilla', args: ['agent', 'mcp'] },
    });
    expect(toml).toContain(
      '[mcp_servers.flotilla]\ncommand = "/runs/r1/bin/flotilla"\nargs = ["agent", "mcp"]\nrequired = true\n' +
        'default_tools_approval_mode = "approve"\nstartup_timeout_sec = 60\ntool_timeout_sec = 1900',
    );
    expect(buildCodexConfigToml({ developerInstructions: 'x' })).not.toContain('mcp_servers');
  });
});
