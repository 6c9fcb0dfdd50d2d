import { z } from 'zod';
import type { AgentRole, ImplementorResult, PlannerResult, ReviewerResult } from '../../domain/index.ts';
import { formatZodIssues } from '../../shared/format-zod-issues.ts';

// Per-role output schemas, exactly as seed 001 "Agent Output Schemas". They describe what the AGENT
// produces; the Implementor's `patch` is added by the adapter, so it is not part of its schema.

// --- Planner ---

export const PlannedWorkItemSchema = z.object({
  tempID: z.string(),
  title: z.string(),
  body: z.string(),
  labels: z
    .array(z.string())
    .describe(
      'task:implement or task:refinement, one priority:*, one complexity:* for tasks; runtime:<name> (e.g. runtime:codex, runtime:cli:aider) only when the spec asks for a particular agent runtime — an unknown name blocks the item',
    ),
  blockedBy: z.array(z.string()), // tempIDs (from this result) or existing WorkItem ids
});

export const PlannedWorkItemUpdateSchema = z.object({
  workItemID: z.string(),
  body: z.string().nullable(), // null = no change
  labels: z.array(z.string()).nullable(),
});

export const PlannerOutputSchema = z.object({
  role: z.literal('planner'),
  create: z.array(PlannedWorkItemSchema),
  close: z.array(z.string()),
  update: z.array(PlannedWorkItemUpdateSchema),
});

// --- Implementor (no patch field — adapter extracts it) ---

export const ImplementorOutputSchema = z.object({
  role: z.literal('implementor'),
  outcome: z.enum(['completed', 'blocked', 'validation-failure']),
  summary: z.string(),
});

// --- Reviewer ---

export const AgentReviewCommentSchema = z.object({
  path: z.string(),
  line: z.number().nullable(),
  body: z.string(),
});

export const AgentReviewSchema = z.object({
  verdict: z.enum(['approve', 'needs-changes']),
  summary: z.string(),
  comments: z.array(AgentReviewCommentSchema),
});

export const ReviewerOutputSchema = z.object({
  role: z.literal('reviewer'),
  review: AgentReviewSchema,
});

/** What the implementor agent itself returns; the adapter adds `patch` to make an ImplementorResult. */
export type ImplementorOutput = Omit<ImplementorResult, 'patch'>;

/** The validated agent output per role. */
export interface AgentOutputByRole {
  planner: PlannerResult;
  implementor: ImplementorOutput;
  reviewer: ReviewerResult;
}

export const OUTPUT_SCHEMAS = {
  planner: PlannerOutputSchema,
  implementor: ImplementorOutputSchema,
  reviewer: ReviewerOutputSchema,
} as const satisfies { [R in AgentRole]: z.ZodType<AgentOutputByRole[R]> };

/** A JSON Schema object as the SDK's `outputFormat.schema` takes it. */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * The role's output schema as JSON Schema for the SDK's `outputFormat`. zod adds a `$schema` key, which
 * makes the claude CLI exit with "--json-schema is not a valid JSON Schema" before sending any request
 * (claude-sdk-facts.md), so it is removed.
 */
export function buildOutputJsonSchema(role: AgentRole): JsonSchemaObject {
  const { $schema: _dropped, ...schema } = z.toJSONSchema(OUTPUT_SCHEMAS[role], { target: 'draft-7' });
  return schema;
}

export type AgentOutputValidation<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Checks a result message's `structured_output` against the role's schema. The error names the path of
 * every problem, e.g. `create[0].title: Invalid input: expected string, received number`.
 */
export function validateAgentOutput<R extends AgentRole>(
  role: R,
  structuredOutput: unknown,
): AgentOutputValidation<AgentOutputByRole[R]> {
  if (structuredOutput === undefined || structuredOutput === null) {
    return { ok: false, error: `The ${role} produced no structured output` };
  }
  // The cast restores the link between R and its schema that indexing OUTPUT_SCHEMAS loses.
  const schema = OUTPUT_SCHEMAS[role] as unknown as z.ZodType<AgentOutputByRole[R]>;
  const parsed = schema.safeParse(structuredOutput);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `Invalid ${role} output: ${formatZodIssues(parsed.error.issues).join('; ')}` };
}
