import { z } from 'zod';
import type { AgentRole, ImplementorResult, PlannerResult, ReviewerResult } from '../../domain/index.ts';
import { formatZodIssues } from '../../shared/format-zod-issues.ts';

// Per-role output schemas, exactly as docs/runtime-spec.md §Agent Output Schemas. They describe what the AGENT
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
  // Issue #28 §1: each created or updated item's `plan_summary` task context entry. Optional, so plans
  // written before it (and scripted ones) stay valid; codex's strict schema lists it as required and nullable
  // (build-codex-output-schema.ts requires every root property).
  summary: z
    .string()
    .nullable()
    .optional()
    .describe('what this plan does and why, in a few sentences (kept as each item’s plan_summary context)'),
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
export type ImplementorOutput = Omit<ImplementorResult, 'patch' | 'base' | 'report'>;

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
 * (docs/claude-sdk-facts.md §Structured output), so it is removed.
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

// --- Questions (any role) ---

/** What an agent returns instead of its result when it needs a human's answers first (issue 13). */
export function buildQuestionsOutputSchema(role: AgentRole) {
  return z.object({
    role: z.literal(role),
    outcome: z.literal('questions'),
    questions: z.array(z.string().min(1)).min(1),
  });
}

/**
 * The role's output schema, or the questions an agent may stop with instead (`outcome: 'questions'`), as one
 * JSON Schema object for structured output (`anyOf`; `$schema` removed as in buildOutputJsonSchema).
 */
export function buildOutputOrQuestionsJsonSchema(role: AgentRole): JsonSchemaObject {
  const { $schema: _dropped, ...questions } = z.toJSONSchema(buildQuestionsOutputSchema(role), {
    target: 'draft-7',
  });
  return { type: 'object', anyOf: [buildOutputJsonSchema(role), questions] };
}

/**
 * validateAgentOutput, except that `outcome: 'questions'` is the agent asking a human: then the questions
 * (validated: at least one, none empty) come back instead of the role's output.
 */
export function validateAgentOutputOrQuestions<R extends AgentRole>(
  role: R,
  structuredOutput: unknown,
): AgentOutputValidation<
  { kind: 'result'; output: AgentOutputByRole[R] } | { kind: 'questions'; questions: string[] }
> {
  if (
    typeof structuredOutput === 'object' &&
    structuredOutput !== null &&
    (structuredOutput as { outcome?: unknown }).outcome === 'questions'
  ) {
    const parsed = buildQuestionsOutputSchema(role).safeParse(structuredOutput);
    if (parsed.success) return { ok: true, value: { kind: 'questions', questions: parsed.data.questions } };
    return {
      ok: false,
      error: `Invalid ${role} questions: ${formatZodIssues(parsed.error.issues).join('; ')}`,
    };
  }
  const validated = validateAgentOutput(role, structuredOutput);
  return validated.ok ? { ok: true, value: { kind: 'result', output: validated.value } } : validated;
}
