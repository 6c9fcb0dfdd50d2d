import type { TextMatcherSpec } from './scenario-schema.ts';

export type TextMatchers = TextMatcherSpec | TextMatcherSpec[];

/** The matchers of a `TextMatchers` field that do NOT match `text` (empty: all match). */
export function findUnmatched(text: string, matchers: TextMatchers): TextMatcherSpec[] {
  const list = Array.isArray(matchers) ? matchers : [matchers];
  return list.filter((matcher) => !matchesOne(text, matcher));
}

/** The matchers of a `TextMatchers` field that DO match `text`. */
export function findMatched(text: string, matchers: TextMatchers): TextMatcherSpec[] {
  const list = Array.isArray(matchers) ? matchers : [matchers];
  return list.filter((matcher) => matchesOne(text, matcher));
}

export function matchesOne(text: string, matcher: TextMatcherSpec): boolean {
  if (typeof matcher === 'string') return text.includes(matcher);
  return new RegExp(matcher.regex, matcher.flags).test(text);
}

export function describeMatcher(matcher: TextMatcherSpec): string {
  return typeof matcher === 'string' ? JSON.stringify(matcher) : `/${matcher.regex}/${matcher.flags ?? ''}`;
}
