import { describeMatcher, findMatched, findUnmatched, type TextMatchers } from './match-text.ts';
import type { RequestView } from './request-view.ts';
import type { Step } from './scenario-types.ts';

/** Checks a step's expectations (`expect` and `check`) against the request; returns the unmet ones. */
export function checkExpectations(step: Step, request: RequestView): string[] {
  const failures: string[] = [];
  const expect = step.expect;
  if (expect !== undefined) {
    requireText(failures, 'system', request.system, expect.systemIncludes);
    requireText(failures, 'first user message', request.firstUser, expect.firstUserIncludes);
    requireText(failures, 'last user message', request.lastUser, expect.lastUserIncludes);
    if (expect.lastToolResultIncludes !== undefined || expect.lastToolResultIsError !== undefined) {
      const last = request.lastToolResult;
      if (last === undefined) {
        failures.push('expected a tool_result in the request, found none');
      } else {
        requireText(failures, 'last tool_result', last.text, expect.lastToolResultIncludes);
        if (expect.lastToolResultIsError !== undefined && last.isError !== expect.lastToolResultIsError) {
          failures.push(
            `last tool_result is_error is ${last.isError}, expected ${expect.lastToolResultIsError}`,
          );
        }
      }
    }
    if (expect.toolResultsInclude !== undefined) {
      const texts = request.latestToolResults.map((result) => result.text);
      const list = Array.isArray(expect.toolResultsInclude)
        ? expect.toolResultsInclude
        : [expect.toolResultsInclude];
      for (const matcher of list) {
        if (!texts.some((text) => findUnmatched(text, matcher).length === 0)) {
          failures.push(
            `no tool_result of the latest tool-result turn contains ${describeMatcher(matcher)} ` +
              `(results: ${texts.map((text) => excerpt(text)).join(' | ') || 'none'})`,
          );
        }
      }
    }
    requireText(failures, 'messages', request.messagesText, expect.messagesInclude);
    if (expect.messagesExclude !== undefined) {
      for (const matcher of findMatched(request.messagesText, expect.messagesExclude)) {
        failures.push(`messages contain ${describeMatcher(matcher)}, expected not to`);
      }
    }
    for (const name of expect.toolsInclude ?? []) {
      if (!request.toolNames.includes(name)) {
        failures.push(`tool ${name} not offered (tools: ${request.toolNames.join(', ') || 'none'})`);
      }
    }
    for (const name of expect.toolsExclude ?? []) {
      if (request.toolNames.includes(name)) failures.push(`tool ${name} offered, expected not to be`);
    }
    if (expect.model !== undefined && request.model !== expect.model) {
      failures.push(`model is ${String(request.model)}, expected ${expect.model}`);
    }
  }
  if (step.check !== undefined) {
    const custom = step.check(request);
    if (typeof custom === 'string') failures.push(custom);
    else if (Array.isArray(custom)) failures.push(...custom);
  }
  return failures;
}

function requireText(
  failures: string[],
  what: string,
  text: string,
  matchers: TextMatchers | undefined,
): void {
  if (matchers === undefined) return;
  for (const matcher of findUnmatched(text, matchers)) {
    failures.push(`${what} does not contain ${describeMatcher(matcher)} (${what}: ${excerpt(text)})`);
  }
}

/** Head and tail of a long text (prompts usually end with the interesting part). */
function excerpt(text: string, half = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > half * 2 ? `${flat.slice(0, half)}…${flat.slice(-half)}` : flat);
}
