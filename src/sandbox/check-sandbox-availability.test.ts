import { describe, expect, it } from 'vitest';
import { probeSandbox } from './check-sandbox-availability.ts';
import { MACOS_SANDBOX_STATUS } from './sandbox-types.ts';

describe('probeSandbox', () => {
  it('refuses macOS with what applies there, other platforms naming them, and Linux without bwrap', () => {
    expect(probeSandbox({ platform: 'darwin' })).toEqual({
      available: false,
      problems: [MACOS_SANDBOX_STATUS],
    });
    expect(probeSandbox({ platform: 'win32' }).problems[0]).toContain('win32 is not supported');
    expect(probeSandbox({ platform: 'linux', pathEnv: '/nowhere' }).problems[0]).toContain(
      'apt-get install bubblewrap',
    );
    expect(probeSandbox({ platform: 'linux' }).available).toBe(true);
  });
});
