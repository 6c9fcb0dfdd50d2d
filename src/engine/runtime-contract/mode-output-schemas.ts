import { z } from 'zod';
import {
  type InvestigationReport,
  type ModeReport,
  type ProposalKind,
  type RefinementReport,
  WORK_ITEM_COMPLEXITIES,
  type WorkItemMode,
} from '../../domain/index.ts';
import { formatZodIssues } from '../../shared/format-zod-issues.ts';
import {
  type AgentOutputValidation,
  buildQuestionsOutputSchema,
  type JsonSchemaObject,
  PlannedWorkItemSchema,
  PlannerOutputSchema,
} from './agent-output-schemas.ts';

// Issue #29: what an investigation and a refinement return. Neither carries a patch
// (the modes never write files); the engine proposes or applies the report.

export const InvestigationOutputSchema = z.object({
  mode: z.literal('investigate'),
  summary: z.string().min(1).describe('Two or three sentences: what is wrong and why'),
  rootCause: z.string().min(1).describe('The root cause, precisely: the code path and the faulty logic'),
  evidence: z
    .array(z.string())
    .describe('What shows it: failing test output, the lines read, a reproduction'),
  files: z.array(z.string()).describe('Repository paths involved in the cause and the fix'),
  fixes: z
    .array(PlannedWorkItemSchema)
    .min(1)
    .describe('The fix items to create (task:implement, priority:*, complexity:*); blockedBy names tempIDs'),
});

export const RefinementOutputSchema = z.object({
  mode: z.literal('refine'),
  summary: z.string().min(1).describe('What was unclear and what the refined item now says'),
  title: z.string().min(1).nullable().describe('A clearer title, or null to keep the current one'),
  body: z.string().min(1).describe('The precise description of the work (Markdown)'),
  acceptanceCriteria: z.array(z.string().min(1)).min(1).describe('Checkable acceptance criteria'),
  files: z.array(z.string()).describe('Repository paths the work will touch'),
  size: z.enum(WORK_ITEM_COMPLEXITIES).describe('The work item complexity'),
  labels: z.array(z.string()).describe('The labels the item should have afterwards (priority:*, …)'),
});

const MODE_SCHEMAS = {
  investigate: InvestigationOutputSchema,
  refine: RefinementOutputSchema,
} as const satisfies {
  investigate: z.ZodType<InvestigationReport>;
  refine: z.ZodType<RefinementReport>;
};

/** The mode's report as a JSON Schema (`$schema` removed): what runtimes that ask for JSON show or send. */
export function buildModeOutputJsonSchema(mode: WorkItemMode): JsonSchemaObject {
  const { $schema: _dropped, ...output } = z.toJSONSchema(MODE_SCHEMAS[mode], { target: 'draft-7' });
  return output;
}

/** The mode's output (or the questions the agent may stop with) as one JSON Schema for structured output. */
export function buildModeOutputOrQuestionsJsonSchema(mode: WorkItemMode): JsonSchemaObject {
  const { $schema: _a, ...output } = z.toJSONSchema(MODE_SCHEMAS[mode], { target: 'draft-7' });
  const { $schema: _b, ...questions } = z.toJSONSchema(buildQuestionsOutputSchema('implementor'), {
    target: 'draft-7',
  });
  return { type: 'object', anyOf: [output, questions] };
}

/**
 * Checks a mode run's structured output: its report, or `outcome: 'questions'` (the agent asks a human, as
 * any implementor may). Errors name the mode and each field, e.g. `Invalid investigate output: fixes[0].title:
 * Invalid input: expected string, received number`.
 */
export function validateModeOutputOrQuestions(
  mode: WorkItemMode,
  structuredOutput: unknown,
): AgentOutputValidation<
  { kind: 'report'; report: ModeReport } | { kind: 'questions'; questions: string[] }
> {
  if (structuredOutput === undefined || structuredOutput === null)
    return { ok: false, error: `The ${mode} run produced no structured output` };
  if ((structuredOutput as { outcome?: unknown }).outcome === 'questions') {
    const parsed = buildQuestionsOutputSchema('implementor').safeParse(structuredOutput);
    if (parsed.success) return { ok: true, value: { kind: 'questions', questions: parsed.data.questions } };
    return {
      ok: false,
      error: `Invalid ${mode} questions: ${formatZodIssues(parsed.error.issues).join('; ')}`,
    };
  }
  const parsed = MODE_SCHEMAS[mode].safeParse(structuredOutput);
  if (parsed.success) return { ok: true, value: { kind: 'report', report: parsed.data } };
  return { ok: false, error: `Invalid ${mode} output: ${formatZodIssues(parsed.error.issues).join('; ')}` };
}

/**
 * Why a stored or edited report does not match its mode's schema (`accept --edit` may change it), or null.
 * Names the field: `Invalid investigate report: fixes[0].title: …`.
 */
export function findModeReportSchemaError(report: unknown): string | null {
  const mode = (report as { mode?: unknown } | null)?.mode;
  if (mode !== 'investigate' && mode !== 'refine') return 'the report has no mode (investigate or refine)';
  const parsed = MODE_SCHEMAS[mode].safeParse(report);
  return parsed.success ? null : `Invalid ${mode} report: ${formatZodIssues(parsed.error.issues).join('; ')}`;
}

/** Why a stored or edited plan does not match the planner's schema, or null. */
export function findPlannerResultSchemaError(result: unknown): string | null {
  const parsed = PlannerOutputSchema.safeParse(result);
  return parsed.success ? null : `Invalid plan: ${formatZodIssues(parsed.error.issues).join('; ')}`;
}

/** The schema an edited proposal is checked with, by its kind (`flotilla proposals accept --edit`). */
export function proposalEditSchema(kind: ProposalKind): z.ZodType {
  if (kind === 'plan') return PlannerOutputSchema;
  return kind === 'investigation' ? InvestigationOutputSchema : RefinementOutputSchema;
}
