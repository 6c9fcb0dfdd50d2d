import type { RecordedRequest } from './recorded-request.ts';
import type { Route } from './scenario-types.ts';

export interface ModelServerReport {
  /** No problem at all (every list below empty). */
  ok: boolean;
  /** One readable line per problem, for assertions and logs. */
  problems: string[];
  unmetExpectations: {
    seq: number;
    route: string;
    stepIndex: number;
    stepName?: string;
    failures: string[];
  }[];
  exhausted: { seq: number; route: string; stepIndex: number; stepCount: number }[];
  unrouted: { seq: number; system: string; firstUser: string }[];
  unusedSteps: { route: string; stepIndex: number; stepName?: string }[];
  unknownRoutes: { seq: number; method: string; url: string }[];
  invalid: { seq: number; url: string }[];
  /** Proxy CONNECT attempts: traffic meant for outside 127.0.0.1 (`HTTPS_PROXY` pointed at the server). */
  outside: { seq: number; target: string }[];
  /** Requests per kind. */
  counts: Record<string, number>;
}

export interface ReportInput {
  routes: Route[];
  requests: readonly RecordedRequest[];
  /** Per route name, how many requests each step served. */
  served: ReadonlyMap<string, readonly number[]>;
  /** Unrouted requests with excerpts of their system text and first user message. */
  unroutedExcerpts: ReadonlyMap<number, { system: string; firstUser: string }>;
}

/** Summarises what the server saw: unmet expectations, exhausted scripts, unused steps, odd routes. */
export function buildReport(input: ReportInput): ModelServerReport {
  const { routes, requests, served } = input;
  const unmetExpectations = requests
    .filter((request) => request.unmet.length > 0)
    .map((request) => ({
      seq: request.seq,
      route: request.route ?? '?',
      stepIndex: request.stepIndex ?? -1,
      ...(request.stepName === undefined ? {} : { stepName: request.stepName }),
      failures: request.unmet,
    }));
  const exhausted = requests
    .filter((request) => request.kind === 'exhausted')
    .map((request) => ({
      seq: request.seq,
      route: request.route ?? '?',
      stepIndex: request.stepIndex ?? -1,
      stepCount: routes.find((route) => route.name === request.route)?.steps.length ?? 0,
    }));
  const unrouted = requests
    .filter((request) => request.kind === 'unrouted')
    .map((request) => ({
      seq: request.seq,
      ...(input.unroutedExcerpts.get(request.seq) ?? { system: '', firstUser: '' }),
    }));
  const unusedSteps = routes.flatMap((route) =>
    route.steps.flatMap((step, stepIndex) =>
      (served.get(route.name)?.[stepIndex] ?? 0) > 0
        ? []
        : [{ route: route.name, stepIndex, ...(step.name === undefined ? {} : { stepName: step.name }) }],
    ),
  );
  const unknownRoutes = requests
    .filter((request) => request.kind === 'unknown')
    .map((request) => ({ seq: request.seq, method: request.method, url: request.url }));
  const invalid = requests
    .filter((request) => request.kind === 'invalid')
    .map((request) => ({ seq: request.seq, url: request.url }));
  const outside = requests
    .filter((request) => request.kind === 'connect')
    .map((request) => ({ seq: request.seq, target: request.url }));
  const counts: Record<string, number> = { total: requests.length };
  for (const request of requests) counts[request.kind] = (counts[request.kind] ?? 0) + 1;

  const problems = [
    ...unmetExpectations.map(
      (entry) =>
        `request #${entry.seq} (${stepLabel(entry.route, entry.stepIndex, entry.stepName)}): ` +
        `unmet expectation: ${entry.failures.join('; ')}`,
    ),
    ...dedupe(
      exhausted.map(
        (entry) =>
          `route '${entry.route}' exhausted: a request asked for step ${entry.stepIndex} ` +
          `but the route has ${entry.stepCount} step(s)`,
      ),
    ),
    ...unrouted.map(
      (entry) =>
        `request #${entry.seq} matched no route (system: ${JSON.stringify(entry.system)}, ` +
        `first user message: ${JSON.stringify(entry.firstUser)})`,
    ),
    ...unusedSteps.map(
      (entry) => `${stepLabel(entry.route, entry.stepIndex, entry.stepName)} was never requested`,
    ),
    ...unknownRoutes.map((entry) => `request #${entry.seq}: unknown route ${entry.method} ${entry.url}`),
    ...invalid.map((entry) => `request #${entry.seq}: body of ${entry.url} is not a JSON object`),
    ...outside.map(
      (entry) =>
        `request #${entry.seq}: CONNECT ${entry.target} through the server as a proxy (traffic leaving 127.0.0.1)`,
    ),
  ];
  return {
    ok: problems.length === 0,
    problems,
    unmetExpectations,
    exhausted,
    unrouted,
    unusedSteps,
    unknownRoutes,
    invalid,
    outside,
    counts,
  };
}

function stepLabel(route: string, stepIndex: number, stepName: string | undefined): string {
  return `route '${route}' step ${stepIndex}${stepName === undefined ? '' : ` '${stepName}'`}`;
}

function dedupe(lines: string[]): string[] {
  return [...new Set(lines)];
}
