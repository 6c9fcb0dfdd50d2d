import { findUnmatched, matchesOne, type TextMatchers } from './match-text.ts';
import type { RequestView } from './request-view.ts';
import type { RouteMatchSpec } from './scenario-schema.ts';
import type { Route } from './scenario-types.ts';

/** The first route whose `match` holds for the request (a route without `match` takes everything). */
export function findRoute(routes: Route[], request: RequestView): Route | undefined {
  return routes.find((route) => route.match === undefined || routeMatches(route.match, request));
}

export function routeMatches(match: RouteMatchSpec, request: RequestView): boolean {
  if (match.subagent !== undefined && match.subagent !== request.isSubagent) return false;
  if (match.sessionId !== undefined && match.sessionId !== request.sessionId) return false;
  if (match.systemIncludes !== undefined && findUnmatched(request.system, match.systemIncludes).length > 0) {
    return false;
  }
  if (
    match.firstUserIncludes !== undefined &&
    findUnmatched(request.firstUser, match.firstUserIncludes).length > 0
  ) {
    return false;
  }
  if (match.promptIncludes !== undefined && !promptMatches(match.promptIncludes, request)) return false;
  if (
    match.toolsInclude !== undefined &&
    !match.toolsInclude.every((name) => request.toolNames.includes(name))
  ) {
    return false;
  }
  return true;
}

function promptMatches(matchers: TextMatchers, request: RequestView): boolean {
  const list = Array.isArray(matchers) ? matchers : [matchers];
  return list.every(
    (matcher) => matchesOne(request.system, matcher) || matchesOne(request.firstUser, matcher),
  );
}
