/**
 * A script's `structuredOutput` with every top-level property the schema requires but the script left out
 * set to null, when the property's schema accepts null. Strict structured output makes a model emit every
 * property (a nullable one as null), so this is what a real model would send; it spares scripts written
 * before a runtime added such a property (codex's `outcome`/`questions` for asking a human) from listing
 * them. Properties that do not accept null are left missing, so the schema check still reports them.
 */
export function fillNullableProperties(
  structuredOutput: Record<string, unknown>,
  schema: unknown,
): Record<string, unknown> {
  if (!isObject(schema) || !isObject(schema.properties)) return structuredOutput;
  const filled = { ...structuredOutput };
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!(name in filled) && acceptsNull(property)) filled[name] = null;
  }
  return filled;
}

function acceptsNull(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return [schema.anyOf, schema.oneOf].some((options) => Array.isArray(options) && options.some(acceptsNull));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
