import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** Where a CLI agent reports how its run ended, relative to its working directory. */
export const SIGNAL_FILE = '.flotilla/signal.json';

/** Larger than any honest signal; a bigger file is refused unread. */
const MAX_SIGNAL_BYTES = 1024 * 1024;

/**
 * The signal file (docs/runtime-spec.md §Signal file): `done` with the role's result, `questions` for a human, or `error`. The
 * result is checked against the role's schema separately; here it only has to be there.
 */
export const AgentSignalSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('done'), result: z.record(z.string(), z.unknown()) }),
  z.object({
    status: z.literal('questions'),
    questions: z.array(z.string().min(1)).min(1, 'expected at least one question'),
  }),
  z.object({ status: z.literal('error'), error: z.string().min(1, 'expected a description of the error') }),
]);

export type AgentSignal = z.infer<typeof AgentSignalSchema>;

export type SignalReading =
  | { kind: 'valid'; signal: AgentSignal }
  | { kind: 'missing' }
  | { kind: 'invalid'; error: string };

/** Reads and validates the signal file in `cwd`. Never throws: a problem is a reading that says what. */
export async function readAgentSignal(cwd: string): Promise<SignalReading> {
  let text: string;
  try {
    const bytes = await readFile(join(cwd, SIGNAL_FILE));
    if (bytes.length > MAX_SIGNAL_BYTES) {
      return {
        kind: 'invalid',
        error: `${SIGNAL_FILE} is ${bytes.length} bytes (at most ${MAX_SIGNAL_BYTES})`,
      };
    }
    text = bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', error: `${SIGNAL_FILE} could not be read (${(error as Error).message})` };
  }
  return parseAgentSignal(text);
}

/** Parses the signal file's text; errors name the field and what was expected. */
export function parseAgentSignal(text: string): SignalReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', error: `${SIGNAL_FILE} is not valid JSON (${(error as Error).message})` };
  }
  const parsed = AgentSignalSchema.safeParse(json);
  if (parsed.success) return { kind: 'valid', signal: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
    const field = path === '' ? '(root)' : path.slice(path.startsWith('.') ? 1 : 0);
    return `${field}: ${issue.message}`;
  });
  return { kind: 'invalid', error: `${SIGNAL_FILE} is invalid: ${problems.join('; ')}` };
}
