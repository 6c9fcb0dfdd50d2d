import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { RuntimeAvailability } from '../../engine/runtime-contract/index.ts';
import type { CliPreset } from './cli-presets.ts';

/**
 * The CLI runtime's preflight, shared by the runtime (before each dispatch) and `flotilla doctor`: the
 * program the preset starts (or the configured `program`) is an executable on the agent's PATH, and — for
 * presets that can only use a key from the environment (`credentialsRequired`) — one of the preset's
 * credential variables is set. Other tools may log in on their own (gemini, codex and opencode keep a login
 * under HOME), so a missing key is not a refusal for them. Looks at the file system only: no process.
 */
export function checkCliAvailability(input: {
  presetName: string;
  preset: CliPreset;
  program?: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Where a relative program path is resolved (the repository root). */
  cwd: string;
}): RuntimeAvailability {
  const problems: string[] = [];
  const program = input.program?.[0] ?? input.preset.start[0] ?? '';
  if (findExecutable(program, input.env.PATH ?? '', input.cwd) === null) {
    problems.push(
      `${program || '(no program)'} (CLI preset ${input.presetName}) is not an executable on PATH: install it, or set runtimes.<role>.program in flotilla.config.json to its path`,
    );
  }
  const credentials = input.preset.credentialEnv.filter((name) => !name.endsWith('_BASE_URL'));
  const hasCredential = credentials.some((name) => (input.env[name] ?? '').trim() !== '');
  if (input.preset.credentialsRequired === true && credentials.length > 0 && !hasCredential) {
    problems.push(
      `no credentials for the ${input.presetName} CLI: set ${credentials.join(' or ')} in the environment of \`flotilla run\``,
    );
  }
  return problems.length === 0 ? { available: true } : { available: false, problems };
}

/** The program's path when it is an executable file: a path as given, else the first match on PATH. */
export function findExecutable(program: string, path: string, cwd: string): string | null {
  if (program === '') return null;
  if (program.includes('/')) {
    const candidate = isAbsolute(program) ? program : resolve(cwd, program);
    return isExecutableFile(candidate) ? candidate : null;
  }
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
