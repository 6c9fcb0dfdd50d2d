import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import type { AgentRole } from '../../domain/index.ts';
import { hasErrorCode } from '../../shared/has-error-code.ts';
import { isRecord } from '../../shared/is-record.ts';
import { messageOf } from '../../shared/message-of.ts';

/**
 * The inline agent definition handed to the SDK's `agents` option. Structurally the SDK's
 * `AgentDefinition` (the fields Flotilla sets), declared here so no gray-matter or SDK type leaks out.
 */
export interface AgentDefinition {
  description: string;
  /** Allowed tools; absent = inherit every tool. Never contains a disallowed tool. */
  tools?: string[];
  /** Denied tools, even when listed in `tools` or inherited. */
  disallowedTools?: string[];
  /** The file's markdown body with the project context appended. */
  prompt: string;
  /** Model alias or id; `inherit` when the file names none. */
  model: string;
}

export interface LoadedAgentDefinition {
  definition: AgentDefinition;
  /** Session-level `maxTurns` for `query()`; undefined when the file sets none (SDK default applies). */
  maxTurns: number | undefined;
  /** The file the definition came from. */
  filePath: string;
}

export interface LoadAgentDefinitionParams {
  /** Absolute path of the repository root; the file is `{repoRoot}/.claude/agents/{role}.md`. */
  repoRoot: string;
  role: AgentRole;
  /** The file's name without `.md` when it is not the role's (a mode's: `investigate`, `refine`). */
  fileName?: string;
  /**
   * The definition's text when the repository has no such file (a mode's built-in default, for repositories
   * `flotilla init` set up before the mode existed); absent: a missing file is an error.
   */
  builtIn?: string;
  /** Files (relative to repoRoot) appended to the prompt, read fresh on every call. */
  contextPaths: readonly string[];
  /** Replaces the file's model for this run (e.g. complexity-based dispatch). */
  modelOverride?: string | undefined;
  /**
   * The session uses `outputFormat`, so the CLI's `StructuredOutput` tool must survive a restricted
   * tool list (docs/claude-sdk-facts.md §Structured output). Default: true.
   */
  structuredOutput?: boolean;
}

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';

/** gray-matter evaluates `---js` front matter with eval(); agent files are data, never code. */
const REJECT_JAVASCRIPT = {
  parse: () => {
    throw new Error('only YAML front matter is supported');
  },
};

/**
 * Reads `.claude/agents/<role>.md` and maps it to an inline agent definition (docs/runtime-spec.md §Agent Definition
 * Loading"): description, tools and disallowedTools (comma-separated string or YAML list), model (default
 * `inherit`, override wins), maxTurns (a session option), body → prompt with the project context files
 * appended. Rejects with an error naming the file and the problem when the file is missing, its YAML is
 * malformed, or a field has the wrong type.
 */
export async function loadAgentDefinition(params: LoadAgentDefinitionParams): Promise<LoadedAgentDefinition> {
  const filePath = join(params.repoRoot, '.claude', 'agents', `${params.fileName ?? params.role}.md`);
  let source: string;
  try {
    source = await readFile(filePath, 'utf8');
  } catch (error) {
    if (params.builtIn !== undefined && hasErrorCode(error, 'ENOENT'))
      return parseAgentDefinition(
        params.builtIn,
        `the built-in ${params.fileName ?? params.role} definition (no ${filePath})`,
        params,
      );
    throw new Error(`Cannot read the ${params.role} agent definition ${filePath}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  return parseAgentDefinition(source, filePath, params);
}

/** An agent definition's text (`filePath`: where it came from, for errors) as loadAgentDefinition maps it. */
async function parseAgentDefinition(
  source: string,
  filePath: string,
  params: LoadAgentDefinitionParams,
): Promise<LoadedAgentDefinition> {
  let data: unknown;
  let body: string;
  try {
    // Passing options also keeps gray-matter from caching every file it ever parsed.
    const parsed = matter(source, { engines: { javascript: REJECT_JAVASCRIPT } });
    data = parsed.data;
    body = parsed.content;
  } catch (error) {
    throw new Error(`Malformed YAML front matter in ${filePath}: ${messageOf(error)}`, { cause: error });
  }
  if (!isRecord(data)) {
    throw new Error(`Malformed front matter in ${filePath}: expected key: value pairs`);
  }

  const fieldError = (field: string, expected: string, value: unknown) =>
    new Error(`Invalid "${field}" in ${filePath}: expected ${expected}, got ${JSON.stringify(value)}`);

  const description = optionalString(data, 'description', fieldError) ?? params.role;
  const model = params.modelOverride ?? optionalString(data, 'model', fieldError) ?? 'inherit';
  const disallowedTools = toolList(data, 'disallowedTools', fieldError);
  let tools = toolList(data, 'tools', fieldError);
  const maxTurns = readMaxTurns(data.maxTurns, fieldError);

  const structuredOutput = params.structuredOutput ?? true;
  if (structuredOutput && disallowedTools?.includes(STRUCTURED_OUTPUT_TOOL)) {
    throw new Error(
      `${filePath} disallows ${STRUCTURED_OUTPUT_TOOL}, which the ${params.role} needs to return its result`,
    );
  }
  if (tools !== undefined) {
    // Disallowed wins over allowed; dropping them here makes the effective list explicit.
    tools = tools.filter((tool) => !disallowedTools?.includes(tool));
    if (structuredOutput && !tools.includes(STRUCTURED_OUTPUT_TOOL)) tools.push(STRUCTURED_OUTPUT_TOOL);
  }

  const prompt = await appendProjectContext(body, params.repoRoot, params.contextPaths);
  const definition: AgentDefinition = {
    description,
    ...(tools !== undefined && { tools }),
    ...(disallowedTools !== undefined && { disallowedTools }),
    prompt,
    model,
  };
  return { definition, maxTurns, filePath };
}

/** docs/runtime-spec.md §Project Context Injection: contents joined by blank lines, after a blank line. */
async function appendProjectContext(
  prompt: string,
  repoRoot: string,
  contextPaths: readonly string[],
): Promise<string> {
  if (contextPaths.length === 0) return prompt;
  const contents = await Promise.all(
    contextPaths.map(async (contextPath) => {
      const path = join(repoRoot, contextPath);
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        throw new Error(`Cannot read the project context file ${path}: ${messageOf(error)}`, {
          cause: error,
        });
      }
    }),
  );
  return `${prompt}\n\n${contents.join('\n\n')}`;
}

type FieldError = (field: string, expected: string, value: unknown) => Error;

function optionalString(
  data: Record<string, unknown>,
  field: string,
  fieldError: FieldError,
): string | undefined {
  const value = data[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fieldError(field, 'a string', value);
  return value;
}

/** `Read, Grep` or a YAML list → trimmed names; absent (or empty YAML value) → undefined. */
function toolList(
  data: Record<string, unknown>,
  field: string,
  fieldError: FieldError,
): string[] | undefined {
  const value = data[field];
  if (value === undefined || value === null) return undefined;
  const expected = 'a comma-separated string or a list of strings';
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items)) throw fieldError(field, expected, value);
  return items
    .map((item) => {
      if (typeof item !== 'string') throw fieldError(field, expected, value);
      return item.trim();
    })
    .filter((item) => item !== '');
}

function readMaxTurns(value: unknown, fieldError: FieldError): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
    throw fieldError('maxTurns', 'a positive integer', value);
  }
  return number;
}
