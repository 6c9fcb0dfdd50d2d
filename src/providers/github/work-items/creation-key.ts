import { createHash } from 'node:crypto';
import type { CreateWorkItemInput } from '../../../domain/index.ts';

/**
 * The idempotency key of a created issue: a hash of what the planner asked for (title, description, labels,
 * blockers), hidden in the body as `<!-- flotilla:create 1a2b… -->`. A re-run after a crash between
 * "issue created" and "recorded" asks for the same thing, finds the open issue carrying the key and returns
 * it instead of opening a duplicate.
 */
export function buildCreationKey(input: CreateWorkItemInput): string {
  const canonical = JSON.stringify([input.title, input.body, [...input.labels].sort(), input.blockedBy]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 20);
}

const CREATION_MARKER = /(?:\n\n)?<!-- flotilla:create ([0-9a-f]{20}) -->/g;

export function buildCreationMarker(key: string): string {
  return `\n\n<!-- flotilla:create ${key} -->`;
}

/** The key in a body, or null. */
export function parseCreationKey(body: string): string | null {
  return [...body.matchAll(CREATION_MARKER)].at(-1)?.[1] ?? null;
}

export function stripCreationMarker(body: string): string {
  return body.replace(CREATION_MARKER, '');
}
