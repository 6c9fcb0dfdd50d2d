import { formatZodIssues } from '../shared/format-zod-issues.ts';
import { isRecord } from '../shared/is-record.ts';
import { scenarioSchema } from './scenario-schema.ts';
import type { Scenario } from './scenario-types.ts';

/** Thrown when a scenario does not match the schema; the message names the source and every bad field. */
export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly issues: string[],
  ) {
    super(`invalid model-server scenario ${source}:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ScenarioError';
  }
}

/**
 * Validates a scenario (parsed JSON or built in code) and returns it. Step callbacks (`check`, `respond`)
 * are kept; everything else must match the JSON schema. `source` names the file or origin in errors.
 */
export function parseScenario(input: unknown, source = '<inline scenario>'): Scenario {
  const result = scenarioSchema.safeParse(withoutCallbacks(input));
  if (!result.success) throw new ScenarioError(source, formatZodIssues(result.error.issues));
  // The schema validated a copy without callbacks; return the caller's object so its callbacks are kept.
  return input as Scenario;
}

/** Replaces step callbacks by what the schema can check: a `respond` counts as a reply. */
function withoutCallbacks(input: unknown): unknown {
  if (!isRecord(input) || !Array.isArray(input.routes)) return input;
  return {
    ...input,
    routes: input.routes.map((route: unknown) => {
      if (!isRecord(route) || !Array.isArray(route.steps)) return route;
      return {
        ...route,
        steps: route.steps.map((step: unknown) => {
          if (!isRecord(step)) return step;
          const { check, respond, hold, ...rest } = step;
          if (check !== undefined && typeof check !== 'function') return step;
          if (respond !== undefined && typeof respond !== 'function') return step;
          if (hold !== undefined && typeof hold !== 'function') return step;
          const hasReply =
            rest.text !== undefined || rest.content !== undefined || rest.structuredOutput !== undefined;
          return respond !== undefined && !hasReply ? { ...rest, text: '' } : rest;
        }),
      };
    }),
  };
}
