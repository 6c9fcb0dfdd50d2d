import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'test/**/*.test.ts',
      // Opt-in checks against real GitHub (src/providers/github/README.md): registered only when asked for.
      ...(process.env.FLOTILLA_GITHUB_TEST_REPO ? ['src/**/*.github-live.ts'] : []),
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
