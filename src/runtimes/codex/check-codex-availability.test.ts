import { describe, expect, it } from 'vitest';
import { checkCodexAvailability } from './check-codex-availability.ts';

describe('checkCodexAvailability', () => {
  it('is available with the bundled binary and an OpenAI key', () => {
    expect(checkCodexAvailability({ env: { OPENAI_API_KEY: 'sk-test' } })).toEqual({
      available: true,
      problems: [],
    });
    expect(checkCodexAvailability({ env: { CODEX_API_KEY: 'sk-test' } }).available).toBe(true);
  });

  it('names the variable to set when no key is configured', () => {
    expect(checkCodexAvailability({ env: { OPENAI_API_KEY: '' } })).toEqual({
      available: false,
      problems: ['no OpenAI API key for codex: set CODEX_API_KEY or OPENAI_API_KEY'],
    });
    const provider = { id: 'local', baseUrl: 'http://127.0.0.1:1/v1', envKey: 'LOCAL_KEY' };
    expect(checkCodexAvailability({ env: { OPENAI_API_KEY: 'sk' }, provider }).problems).toEqual([
      "no API key for the codex provider 'local': set LOCAL_KEY",
    ]);
  });

  it('reports a codex binary that is not there', () => {
    const { available, problems } = checkCodexAvailability({
      env: { OPENAI_API_KEY: 'sk' },
      codexPath: '/nonexistent/codex',
    });
    expect(available).toBe(false);
    expect(problems[0]).toMatch(/^codex binary not found: .*\/nonexistent\/codex/);
  });
});
