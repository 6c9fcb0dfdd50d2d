import { type CliContext, openCliContext } from './open-cli-context.ts';

/** Opens the CLI context, runs `body` with it and always closes the database afterwards. */
export async function withCliContext<T>(body: (context: CliContext) => Promise<T> | T): Promise<T> {
  const context = await openCliContext();
  try {
    return await body(context);
  } finally {
    context.close();
  }
}
