import { describe, expect, it } from 'vitest';
import { buildSandboxEnv, SANDBOX_HOME } from './build-sandbox-env.ts';

describe('buildSandboxEnv', () => {
  it("is the request's environment with the sandbox home and TMPDIR, nothing of Flotilla's", () => {
    expect(buildSandboxEnv({ PATH: '/usr/bin', HOME: '/root' }, { writable: ['/w'] })).toEqual({
      env: { PATH: '/usr/bin', HOME: SANDBOX_HOME, TMPDIR: '/tmp' },
      createHome: true,
    });
  });

  it('keeps a HOME the request points into a writable directory', () => {
    expect(buildSandboxEnv({ HOME: '/state/run-1/home' }, { writable: ['/w', '/state/run-1'] })).toEqual({
      env: { HOME: '/state/run-1/home', TMPDIR: '/tmp' },
      createHome: false,
    });
  });

  it('points every proxy variable at the in-sandbox proxy, loopback excepted', () => {
    const { env } = buildSandboxEnv(
      { HTTPS_PROXY: 'http://user:pw@corp:3128' },
      { writable: [], proxyPort: 3128 },
    );
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) {
      expect(env[name]).toBe('http://127.0.0.1:3128');
    }
    expect(env.NO_PROXY).toBe('127.0.0.1,localhost,::1');
  });
});
