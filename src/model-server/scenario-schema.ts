import { z } from 'zod';

/**
 * JSON form of a model-server scenario. Everything a scenario file may contain is described here; the
 * in-code form (`Scenario` in scenario-types.ts) adds optional callbacks on top of it.
 */

const nonEmpty = z.string().min(1);

/** A substring to look for, or `{ regex, flags }` for a regular expression. */
export const textMatcherSchema = z.union([
  nonEmpty,
  z
    .strictObject({ regex: nonEmpty, flags: z.string().optional() })
    .refine((matcher) => isValidRegex(matcher.regex, matcher.flags), {
      message: 'is not a valid regular expression (regex + flags)',
      path: ['regex'],
    }),
]);

/** One matcher or a list of matchers that must all match. */
const textMatchersSchema = z.union([textMatcherSchema, z.array(textMatcherSchema).min(1)]);

export const routeMatchSchema = z.strictObject({
  /** `true`: only requests whose billing block says `cc_is_subagent=true`; `false`: only top-level ones. */
  subagent: z.boolean().optional(),
  /** Text of the `system` blocks (the SDK's fixed line + systemPrompt / inline agent prompt). */
  systemIncludes: textMatchersSchema.optional(),
  /** Text of the first `role:'user'` message (the prompt given to `query()`). */
  firstUserIncludes: textMatchersSchema.optional(),
  /** Matches if the system text OR the first user message matches (each matcher on its own). */
  promptIncludes: textMatchersSchema.optional(),
  /** The `x-claude-code-session-id` header (the SDK's `sessionId`; subagents share their parent's). */
  sessionId: nonEmpty.optional(),
  /** Names of tools that must all be offered in `tools`. */
  toolsInclude: z.array(nonEmpty).min(1).optional(),
});

export const expectationsSchema = z.strictObject({
  systemIncludes: textMatchersSchema.optional(),
  firstUserIncludes: textMatchersSchema.optional(),
  /** All text of the latest user message that carries real content (text and tool_result text). */
  lastUserIncludes: textMatchersSchema.optional(),
  /** Text of the very last `tool_result` block in the conversation. */
  lastToolResultIncludes: textMatchersSchema.optional(),
  /** `is_error` of the very last `tool_result` block. */
  lastToolResultIsError: z.boolean().optional(),
  /** Some `tool_result` of the latest tool-result turn (parallel calls) contains each matcher. */
  toolResultsInclude: textMatchersSchema.optional(),
  /** Anywhere in `messages` (all text, tool inputs and tool results). */
  messagesInclude: textMatchersSchema.optional(),
  /** None of these appear anywhere in `messages`. */
  messagesExclude: textMatchersSchema.optional(),
  toolsInclude: z.array(nonEmpty).min(1).optional(),
  toolsExclude: z.array(nonEmpty).min(1).optional(),
  model: nonEmpty.optional(),
});

export const contentBlockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({
    type: z.literal('tool_use'),
    name: nonEmpty,
    input: z.record(z.string(), z.unknown()),
    id: nonEmpty.optional(),
    /**
     * Responses API only: the tool's namespace (codex offers an MCP server's tools as the namespace
     * `mcp__<server>`, and the model calls them by `namespace` and the tool's own `name`).
     */
    namespace: nonEmpty.optional(),
  }),
]);

export const stopReasonSchema = z.enum([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
]);

export const errorSpecSchema = z.strictObject({
  status: z.number().int().min(400).max(599),
  /** Anthropic error type; defaults from the status (500 api_error, 529 overloaded_error, …). */
  type: nonEmpty.optional(),
  message: nonEmpty.optional(),
  /**
   * How many requests for this step get the error before the step's reply is served. Omitted: every request
   * (the step then must not have a reply).
   */
  times: z.number().int().min(1).optional(),
  /** Sent as `retry-after-ms` (and `retry-after`, rounded up to seconds). */
  retryAfterMs: z.number().int().min(1).optional(),
  /** Sent as `x-should-retry` (`false` makes the CLI give up at once on 5xx/429/529). */
  shouldRetry: z.boolean().optional(),
  /**
   * More response headers, e.g. a subscription usage limit: `anthropic-ratelimit-unified-status: rejected`
   * with `anthropic-ratelimit-unified-reset: <epoch seconds>`.
   */
  headers: z.record(z.string().min(1), z.string()).optional(),
});

export const usageSchema = z.strictObject({
  input_tokens: z.number().int().min(0).optional(),
  output_tokens: z.number().int().min(0).optional(),
  cache_creation_input_tokens: z.number().int().min(0).optional(),
  cache_read_input_tokens: z.number().int().min(0).optional(),
});

export const stepSchema = z
  .strictObject({
    /** Label used in recordings and reports. */
    name: nonEmpty.optional(),
    /** Shorthand for `content: [{ type: 'text', text }]` (may be combined with content: it comes first). */
    text: z.string().optional(),
    content: z.array(contentBlockSchema).min(1).optional(),
    /** Shorthand for a `StructuredOutput` tool_use with this input (appended after text/content). */
    structuredOutput: z.record(z.string(), z.unknown()).optional(),
    stopReason: stopReasonSchema.optional(),
    usage: usageSchema.optional(),
    /** Wait this long before answering (headers included). */
    delayMs: z.number().int().min(0).optional(),
    /** Wait this long between SSE events. */
    chunkDelayMs: z.number().int().min(0).optional(),
    error: errorSpecSchema.optional(),
    expect: expectationsSchema.optional(),
  })
  .superRefine((step, ctx) => {
    const hasReply =
      step.text !== undefined || step.content !== undefined || step.structuredOutput !== undefined;
    if (step.error === undefined && !hasReply) {
      ctx.addIssue({
        code: 'custom',
        message: 'a step needs a reply: text, content, structuredOutput or error',
      });
    }
    if (step.error !== undefined && step.error.times !== undefined && !hasReply) {
      ctx.addIssue({
        code: 'custom',
        path: ['error', 'times'],
        message: 'error.times needs a reply (text, content or structuredOutput) served after the errors',
      });
    }
    if (step.error !== undefined && step.error.times === undefined && hasReply) {
      ctx.addIssue({
        code: 'custom',
        path: ['error'],
        message:
          'an error without times is served forever, so the reply would never be used: set error.times',
      });
    }
  });

export const routeSchema = z.strictObject({
  /** Required: names the route in errors, recordings and reports. */
  name: z
    .string({ error: 'required: a non-empty, unique route name' })
    .min(1, { error: 'required: a non-empty, unique route name' }),
  /** Omitted: the route matches every (non-side) request — put it last. */
  match: routeMatchSchema.optional(),
  steps: z.array(stepSchema),
});

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: nonEmpty.optional(),
    description: z.string().optional(),
    /** Tried in order; the first match wins. */
    routes: z.array(routeSchema).min(1),
    /** Answer to side requests (no tools, or `output_config.format`); they never consume a step. */
    side: z.strictObject({ text: z.string() }).optional(),
    /** Values for `{{name}}` placeholders in replies (options.vars override them). */
    vars: z.record(z.string(), z.string()).optional(),
    /** `reject`: answer a request with unmet expectations with HTTP 400 instead of the step's reply. */
    onUnmetExpectation: z.enum(['record', 'reject']).optional(),
  })
  .superRefine((scenario, ctx) => {
    const seen = new Set<string>();
    scenario.routes.forEach((route, index) => {
      if (seen.has(route.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'name'],
          message: `duplicate route name '${route.name}'`,
        });
      }
      seen.add(route.name);
    });
  });

export type TextMatcherSpec = z.infer<typeof textMatcherSchema>;
export type RouteMatchSpec = z.infer<typeof routeMatchSchema>;
export type ExpectationsSpec = z.infer<typeof expectationsSchema>;
export type ContentBlockSpec = z.infer<typeof contentBlockSchema>;
export type ErrorSpec = z.infer<typeof errorSpecSchema>;
export type UsageSpec = z.infer<typeof usageSchema>;
export type StopReason = z.infer<typeof stopReasonSchema>;
export type StepSpec = z.infer<typeof stepSchema>;
export type RouteSpec = z.infer<typeof routeSchema>;
export type ScenarioSpec = z.infer<typeof scenarioSchema>;

function isValidRegex(source: string, flags: string | undefined): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}
