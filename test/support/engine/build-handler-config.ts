import type { HandlerConfig } from '../../../src/engine/handlers/handler.ts';

/** Three attempts and three automatic review rounds (the defaults), unless overridden. */
export function buildHandlerConfig(overrides: Partial<HandlerConfig> = {}): HandlerConfig {
  return { maxAttempts: 3, maxReviewRounds: 3, maxCheckRounds: 2, ...overrides };
}
