import type { ShellNode } from './shell-ast.ts';

/** GopherJS slice representation. */
interface GoSlice {
  $array: unknown[];
  $offset: number;
  $length: number;
}

const SYNTAX_TYPE_PREFIX = '*syntax.';
/** A Go string holds UTF-8 bytes, one per character, so any byte ≥ 0x80 means it needs decoding. */
const NON_ASCII = /[\u0080-\u00ff]/;

/**
 * Copies a tree of GopherJS-internal `mvdan.cc/sh/v3/syntax` structs into plain objects: every field of
 * every node, generically, so nothing the parser produced is dropped. Go strings (stored by GopherJS as one
 * character per UTF-8 byte) are decoded, slices become arrays, nil pointers and nil interfaces become null,
 * and `syntax.Pos` values become byte offsets. Anything unexpected throws, and the caller blocks.
 *
 * `nilInterface` is GopherJS's shared nil-interface value, captured once from a parsed sample.
 */
export function convertGoSyntaxTree(root: unknown, nilInterface: unknown): ShellNode {
  const converted = convertValue(root, nilInterface, 0);
  if (converted === null || typeof converted !== 'object' || Array.isArray(converted)) {
    throw new Error('the parser returned no syntax tree');
  }
  return converted as ShellNode;
}

const MAX_DEPTH = 2000;

function convertValue(value: unknown, nilInterface: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Error('syntax tree too deep');
  if (value === null || value === undefined || value === nilInterface) return null;
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return value;
    case 'string':
      return NON_ASCII.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
    case 'object':
      break;
    default:
      throw new Error(`unexpected ${typeof value} in the syntax tree`);
  }
  const object = value as Record<string, unknown>;
  if ('$array' in object) {
    const slice = object as unknown as GoSlice;
    const items: unknown[] = [];
    for (let i = 0; i < slice.$length; i += 1) {
      items.push(convertValue(slice.$array[slice.$offset + i], nilInterface, depth + 1));
    }
    return items;
  }
  const goType = (object.constructor as { string?: unknown; nil?: unknown } | undefined) ?? undefined;
  const typeName = goType?.string;
  if (typeof typeName !== 'string' || !typeName.startsWith(SYNTAX_TYPE_PREFIX)) {
    throw new Error(`unexpected value of type ${String(typeName)} in the syntax tree`);
  }
  if (object === goType?.nil) return null;
  const kind = typeName.slice(SYNTAX_TYPE_PREFIX.length);
  if (kind === 'Pos') return object.offs;
  const node: Record<string, unknown> = { type: kind };
  for (const key of Object.keys(object)) {
    if (key === '$val') continue;
    node[key] = convertValue(object[key], nilInterface, depth + 1);
  }
  return node;
}
