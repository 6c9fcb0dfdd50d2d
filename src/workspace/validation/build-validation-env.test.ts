import { describe, expect, it } from 'vitest';
import { buildValidationEnv } from './build-validation-env.ts';

describe('buildValidationEnv', () => {
  it("is the agent's environment without the model credentials (the commands run the agent's code)", () => {
    expect(
      buildValidationEnv({
        PATH: '/usr/bin',
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_AUTH_TOKEN: 't',
        CLAUDE_CODE_OAUTH_TOKEN: 'o',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
      }),
    ).toEqual({ PATH: '/usr/bin', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' });
  });
});
