import { isRecord } from '../shared/is-record.ts';

/** A side request's text, and every string in a side reply's JSON. */
const SIDE_TEXT = 'Scripted reply';

/**
 * The text answering a side request. A configured text wins; with a JSON schema (`output_config.format`)
 * it is the smallest JSON value the schema accepts (strings "Scripted reply", numbers 0, …); else that text.
 */
export function buildSideReply(configured: string | undefined, schema: unknown): string {
  if (configured !== undefined) return configured;
  if (schema !== undefined) return JSON.stringify(minimalValue(schema, 0));
  return SIDE_TEXT;
}

function minimalValue(schema: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) return minimalValue(alternatives[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required)
        ? schema.required.filter((key) => typeof key === 'string')
        : [];
      return Object.fromEntries(required.map((key) => [key, minimalValue(properties[key], depth + 1)]));
    }
    case 'array':
      return [];
    case 'string':
      return SIDE_TEXT;
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
