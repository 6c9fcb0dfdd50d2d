import { describe, expect, it } from 'vitest';
import { findModelEndpoints } from './find-model-endpoints.ts';

describe('findModelEndpoints', () => {
  it('reaches a base URL the environment names instead of the public API', () => {
    expect(
      findModelEndpoints({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010' }),
    ).toEqual(['http://127.0.0.1:4010']);
  });

  it("reaches each key's public API when no base URL is set", () => {
    expect(findModelEndpoints({ OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'g' }).sort()).toEqual([
      'https://api.openai.com',
      'https://generativelanguage.googleapis.com',
    ]);
  });

  it('reaches nothing without a key or a base URL', () => {
    expect(findModelEndpoints({ PATH: '/usr/bin', HOME: '/home/x' })).toEqual([]);
  });
});
