import { z } from 'zod';
import { formatIssuePath } from '../shared/format-zod-issues.ts';
import type { RequestView } from './request-view.ts';
import type { StepReply } from './scenario-types.ts';

/**
 * Checks a Responses API reply against the structured output the request asks for (`text.format` JSON
 * schema): a `structuredOutput` must match the schema, a final reply (no tool call) must have one, and a
 * `structuredOutput` without a schema in the request is reported (codex would hand it over as plain text).
 * Returns the problems; Messages API replies are not checked here (the CLI validates its StructuredOutput
 * tool call itself).
 */
export function checkStructuredOutput(reply: StepReply, request: RequestView): string[] {
  if (request.api !== 'responses') return [];
  const schema = request.outputSchema;
  if (reply.structuredOutput === undefined) {
    const callsTool = (reply.content ?? []).some((block) => block.type === 'tool_use');
    return schema !== undefined && !callsTool
      ? [
          'the request asks for structured output (text.format json_schema) but this final reply has no structuredOutput',
        ]
      : [];
  }
  if (schema === undefined) {
    return [
      'structuredOutput given, but the request has no text.format json_schema (no structured output asked for)',
    ];
  }
  let validator: z.ZodType;
  try {
    // The schema comes from the client: a conversion failure is reported, not thrown.
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return [`the request's text.format schema could not be read: ${String(error)}`];
  }
  const result = validator.safeParse(reply.structuredOutput);
  if (result.success) return [];
  return result.error.issues.map(
    (issue) =>
      `structuredOutput does not match the request's text.format schema at ${formatIssuePath(issue.path)}: ${issue.message}`,
  );
}
