import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'test/**/*.test.ts',
      'web/**/*.test.ts',
      // Opt-in checks against real GitHub (src/providers/github/README.md): registered only when asked for.
      ...(process.env.FLOTILLA_GITHUB_TEST_REPO ? ['test/**/*.github-live.ts'] : []),
    ],
    // Most files wait on child processes (the SDK's CLI, codex, git, flotilla itself), not on the CPU: with
    // vitest's default of one worker per core minus one, a 2-core machine ran them one at a time at load ~1.
    maxWorkers: 4,
    // Fails the run when a process the tests started is still alive at the end; gives every process the tests
    // start a throwaway HOME, so no developer's shell start-up files run in them (test/global-setup/).
    globalSetup: ['test/global-setup/no-leftover-processes.ts', 'test/global-setup/throwaway-home.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
