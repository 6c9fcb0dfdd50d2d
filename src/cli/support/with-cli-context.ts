import type { CliContext } from './open-cli-context.ts';

/**
 * Opens the CLI context, runs `body` with it and always closes the provider and the database afterwards. The config schema
 * (zod) and SQLite load here, on first use, so `--help` and the hooks do not pay for them.
 */
export async function withCliContext<T>(body: (context: CliContext) => Promise<T> | T): Promise<T> {
  const { openCliContext } = await import('./open-cli-context.ts');
  const context = await openCliContext();
  try {
    return await body(context);
  } finally {
    await context.close();
  }
}
