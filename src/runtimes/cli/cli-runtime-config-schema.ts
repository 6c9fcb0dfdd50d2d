import { z } from 'zod';

/** The presets `{"runtime": "cli", "preset": …}` accepts (cli-presets.ts; a test keeps the lists equal). */
export const CLI_RUNTIME_PRESETS = ['claude', 'codex', 'aider', 'gemini', 'opencode', 'custom'] as const;

const nonEmptyString = (what: string) =>
  z.string({ error: `a non-empty string (${what})` }).min(1, { error: `a non-empty string (${what})` });

/**
 * `{"runtime": "cli", "preset": "aider"}` in flotilla.config.json: the role runs an agent CLI (README.md).
 * Every leaf carries its expectation as the zod error, as in src/config/flotilla-config-schema.ts.
 */
export const cliRuntimeConfigSchema = z
  .strictObject(
    {
      runtime: z.literal('cli', { error: "'cli'" }),
      preset: z.enum(CLI_RUNTIME_PRESETS, {
        error: "'claude', 'codex', 'aider', 'gemini', 'opencode' or 'custom'",
      }),
      /** Replaces the preset's program: an absolute path, or a wrapper and its arguments. */
      program: z
        .array(nonEmptyString('a program or argument'), { error: 'a list: the program, then its arguments' })
        .min(1, { error: 'a list: the program, then its arguments' })
        .optional(),
      /** The `custom` preset's templates, checked when the runtime starts (see README.md). */
      custom: z
        .record(z.string(), z.unknown(), { error: 'an object (start, resume, sessionId, credentialEnv)' })
        .optional(),
      /** Repository-relative paths the implementor's patch may not touch (besides the built-in ones). */
      protectedPaths: z
        .array(nonEmptyString('a path relative to the repository root'), { error: 'a list of paths' })
        .default([]),
    },
    { error: 'an object' },
  )
  .refine((cli) => cli.preset !== 'custom' || cli.custom !== undefined, {
    error: "expected the custom preset (start, resume, sessionId) when preset is 'custom'",
    path: ['custom'],
  });
export type CliRuntimeSettings = z.output<typeof cliRuntimeConfigSchema>;
