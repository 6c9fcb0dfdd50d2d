import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { formatIssuePath } from '../shared/format-zod-issues.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { messageOf } from '../shared/message-of.ts';
import { detectDefaultBranch } from './detect-default-branch.ts';
import { findSecretKeys } from './find-secret-keys.ts';
import { CONFIG_FILE_NAME, type FlotillaConfig, flotillaConfigFileSchema } from './flotilla-config-schema.ts';
import { configErrorMap, formatConfigIssues } from './format-config-issues.ts';
import { locateJsonSyntaxError } from './locate-json-syntax-error.ts';

export type LoadConfigResult =
  | {
      ok: true;
      config: FlotillaConfig;
      /** Absolute path of `flotilla.config.json` (whether or not it exists). */
      path: string;
      /** False when there is no file and the config is all defaults. */
      found: boolean;
    }
  | {
      ok: false;
      /** One line per problem, each naming the file, the field path and what was expected. */
      errors: string[];
      path: string;
    };

/**
 * Reads and validates `<repoRoot>/flotilla.config.json`. A missing file means "all defaults"; anything
 * else wrong — unreadable file, malformed JSON (with line and column), unknown keys, wrong types, secrets —
 * is reported, never guessed around. `defaultBranch` is detected from git when the file names none.
 */
export async function loadConfig(repoRoot: string): Promise<LoadConfigResult> {
  const path = join(repoRoot, CONFIG_FILE_NAME);
  const fail = (failures: string[]): LoadConfigResult => ({ ok: false, errors: failures, path });

  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (!hasErrorCode(error, 'ENOENT')) {
      return fail([`${CONFIG_FILE_NAME}: cannot read ${path}: ${messageOf(error)}`]);
    }
  }

  let input: unknown = {};
  if (text !== undefined) {
    const parsed = parseJson(text.replace(/^\uFEFF/, ''));
    if (!parsed.ok) return fail([parsed.error]);
    input = parsed.value;
  }

  // `accounts[n].env` names the agent's credential variables; the schema requires `$VARIABLE` values there.
  const secretPaths = findSecretKeys(input)
    .filter((keyPath) => !(keyPath.length === 4 && keyPath[0] === 'accounts' && keyPath[2] === 'env'))
    .map(formatIssuePath);
  const secretErrors = secretPaths.map(
    (secretPath) =>
      `${CONFIG_FILE_NAME}: ${secretPath}: looks like a secret; secrets are never read from the config file — set them as environment variables (e.g. ANTHROPIC_API_KEY) and remove this key`,
  );

  const result = flotillaConfigFileSchema.safeParse(input, { error: configErrorMap });
  const schemaErrors = result.success
    ? []
    : formatConfigIssues({
        issues: result.error.issues,
        input,
        fileLabel: CONFIG_FILE_NAME,
        knownKeysAt,
        skipPaths: new Set(secretPaths),
      });
  const errors = [...secretErrors, ...schemaErrors];
  if (errors.length > 0 || !result.success) return fail(errors);

  const { defaultBranch, ...rest } = result.data;
  const config: FlotillaConfig = {
    ...rest,
    defaultBranch: defaultBranch ?? (await detectDefaultBranch(repoRoot)),
  };
  return { ok: true, config, path, found: text !== undefined };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const located = locateJsonSyntaxError(text);
    const detail =
      located === undefined
        ? messageOf(error)
        : `line ${located.line}, column ${located.column}: ${located.message}`;
    return { ok: false, error: `${CONFIG_FILE_NAME}: invalid JSON at ${detail}` };
  }
}

/** The keys the schema accepts for the object at `path` (for "unknown key" messages). */
function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType | undefined = flotillaConfigFileSchema;
  for (const key of path) {
    schema = typeof key === 'string' ? unwrapObject(schema)?.shape[key] : undefined;
  }
  return Object.keys(unwrapObject(schema)?.shape ?? {});
}

/** Looks through `.default()`, `.prefault()` and `.optional()` wrappers to the object schema. */
function unwrapObject(schema: z.core.$ZodType | undefined): z.ZodObject | undefined {
  let current = schema;
  while (current !== undefined) {
    if (current instanceof z.ZodObject) return current;
    // Wrapper defs (default, prefault, optional) hold the wrapped schema as `innerType`.
    const def = current._zod.def as { innerType?: z.core.$ZodType };
    current = def.innerType;
  }
  return undefined;
}
