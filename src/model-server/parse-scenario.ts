import type { z } from 'zod';
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
  if (!result.success) throw new ScenarioError(source, formatIssues(result.error.issues));
  // The schema validated a copy without callbacks; return the caller's object so its callbacks are kept.
  return input as Scenario;
}

/** Replaces step callbacks by what the schema can check: a `respond` counts as a reply. */
function withoutCallbacks(input: unknown): unknown {
  if (!isObject(input) || !Array.isArray(input.routes)) return input;
  return {
    ...input,
    routes: input.routes.map((route: unknown) => {
      if (!isObject(route) || !Array.isArray(route.steps)) return route;
      return {
        ...route,
        steps: route.steps.map((step: unknown) => {
          if (!isObject(step)) return step;
          const { check, respond, ...rest } = step;
          if (check !== undefined && typeof check !== 'function') return step;
          if (respond !== undefined && typeof respond !== 'function') return step;
          const hasReply =
            rest.text !== undefined || rest.content !== undefined || rest.structuredOutput !== undefined;
          return respond !== undefined && !hasReply ? { ...rest, text: '' } : rest;
        }),
      };
    }),
  };
}

function formatIssues(issues: z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((part, index) => {
      if (typeof part === 'number') return `[${part}]`;
      return index === 0 ? String(part) : `.${String(part)}`;
    })
    .join('');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
