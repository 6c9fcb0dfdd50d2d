import type { AgentRole, WorkItemMode } from '../../domain/index.ts';
import {
  buildModeOutputJsonSchema,
  buildOutputJsonSchema,
  type JsonSchemaObject,
} from '../../engine/runtime-contract/index.ts';

/**
 * The role's output schema, with the questions option, as codex's turn `outputSchema`. codex sends it as `text.format` with
 * `strict: true`, which the Responses API accepts only when every object forbids additional properties and
 * requires all of its properties (nullable fields are required and may be null). The role schemas are
 * written that way; this checks it, so a schema change that breaks strict mode fails here, by path, instead
 * of as a model-API refusal mid-run.
 */
export function buildCodexOutputSchema(role: AgentRole, mode?: WorkItemMode): JsonSchemaObject {
  // A read-only mode's report (investigate, refine; issue #29) instead of the implementor's result.
  const base = mode !== undefined ? buildModeOutputJsonSchema(mode) : buildOutputJsonSchema(role);
  const schema = withQuestionsOption(base);
  const problems = findStrictModeProblems(schema, '(root)');
  if (problems.length > 0) {
    throw new Error(
      `The ${mode ?? role} output schema is not valid for strict structured output: ${problems.join('; ')}`,
    );
  }
  return schema;
}

const NULL: JsonSchemaObject = { type: 'null' };

/**
 * The role's schema with the option to stop and ask a human instead (`outcome: 'questions'` and the
 * `questions`, as the Claude runtime's structured output offers it). Strict mode refuses a root `anyOf`, so
 * the two shapes are one object: the role's own fields accept null (a question carries none of them),
 * `outcome` accepts `questions` (the implementor's enum gains it; other roles get an `outcome` that is
 * `questions` or null) and `questions` is a list or null. What the agent answers is validated afterwards as
 * the role's result (null fields fail, naming them) or as questions (validateAgentOutputOrQuestions).
 */
function withQuestionsOption(schema: JsonSchemaObject): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const [name, property] of Object.entries(schema.properties as Record<string, JsonSchemaObject>)) {
    if (name === 'role' || name === 'mode') properties[name] = property;
    else if (name === 'outcome' && Array.isArray(property.enum))
      properties[name] = { ...property, enum: [...property.enum, 'questions'] };
    else properties[name] = { anyOf: [property, NULL] };
  }
  properties.outcome ??= {
    anyOf: [{ type: 'string', enum: ['questions'] }, NULL],
    description: '"questions" to stop and ask a human instead of giving the result; else null',
  };
  properties.questions = {
    anyOf: [{ type: 'array', items: { type: 'string' } }, NULL],
    description:
      'With outcome "questions": what you need a human to answer, each one self-contained; else null',
  };
  return { ...schema, properties, required: Object.keys(properties) };
}

/** Every object node that allows extra properties or leaves a property optional, by path. */
export function findStrictModeProblems(node: unknown, path: string): string[] {
  if (Array.isArray(node))
    return node.flatMap((child, index) => findStrictModeProblems(child, `${path}[${index}]`));
  if (typeof node !== 'object' || node === null) return [];
  const record = node as Record<string, unknown>;
  const problems: string[] = [];
  const properties = record.properties;
  if (record.type === 'object' || (typeof properties === 'object' && properties !== null)) {
    if (record.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
    const names = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
    const required = Array.isArray(record.required) ? record.required : [];
    const optional = names.filter((name) => !required.includes(name));
    if (optional.length > 0)
      problems.push(`${path}: every property must be required (${optional.join(', ')})`);
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === 'properties' && typeof child === 'object' && child !== null) {
      for (const [name, property] of Object.entries(child)) {
        problems.push(...findStrictModeProblems(property, path === '(root)' ? name : `${path}.${name}`));
      }
    } else if (typeof child === 'object' && child !== null) {
      problems.push(...findStrictModeProblems(child, `${path}.${key}`));
    }
  }
  return problems;
}
