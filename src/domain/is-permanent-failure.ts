import { isCredentialsFailure, SCRIPTED_RUNTIME } from './agent-run.ts';

/**
 * Failures every retry would repeat, whatever the runtime: the scripted model server refusing a request its
 * scenario has no answer for (no route, a route out of steps, an unmet expectation), and an agent definition
 * or context file that is missing or malformed.
 */
const ALWAYS_PERMANENT: readonly RegExp[] = [
  /\[flotilla model-server\] (no route matches|script exhausted|unmet expectation)/,
  /Cannot read the \w+ agent definition /,
  /Cannot read the project context file /,
  /Malformed (YAML )?front matter in /,
  /Invalid "[^"]+" in [^:]+: expected /,
];

/** An output that does not match the role's schema: a model may do better next time, a script never does. */
const SCRIPTED_PERMANENT: readonly RegExp[] = [
  /Invalid \w+ output: /,
  /The \w+ produced no structured output/,
];

/**
 * Whether a failed run's error (of a run on `runtime`) would come back on every retry: missing credentials,
 * a scenario mistake, a missing or malformed file, or a schema error of a scripted run. The engine does not
 * retry those with back-off: the item is blocked at once with the error, and the planner stops.
 */
export function isPermanentFailure(
  error: string | null | undefined,
  runtime: string | null | undefined,
): boolean {
  if (error == null) return false;
  if (isCredentialsFailure(error)) return true;
  if (ALWAYS_PERMANENT.some((pattern) => pattern.test(error))) return true;
  return runtime === SCRIPTED_RUNTIME && SCRIPTED_PERMANENT.some((pattern) => pattern.test(error));
}
