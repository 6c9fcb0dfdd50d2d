import { existsSync } from 'node:fs';
import type { RuntimeAvailability } from '../../engine/runtime-contract/index.ts';
import { GEMINI_KEY_VARIABLES } from './build-gemini-env.ts';
import { findGeminiBinary } from './find-gemini-binary.ts';

/**
 * The preflight `flotilla doctor` and dispatch show before a gemini run: gemini-cli's bundle is installed
 * (`@google/gemini-cli`) and a Gemini API key variable is set (a Google login in `~/.gemini` is not used:
 * every run has its own home). Starts no process and sends nothing.
 */
export function checkGeminiAvailability(input: {
  env: Readonly<Record<string, string | undefined>>;
  binary?: string | undefined;
}): RuntimeAvailability {
  const problems: string[] = [];
  const binary = input.binary ?? findGeminiBinary();
  if (binary === undefined || !existsSync(binary))
    problems.push('gemini-cli not found: install it with `npm install @google/gemini-cli@0.61.0`');
  if (!GEMINI_KEY_VARIABLES.some((name) => (input.env[name] ?? '') !== ''))
    problems.push(`no Gemini API key for gemini: set ${GEMINI_KEY_VARIABLES.join(' or ')}`);
  return problems.length === 0 ? { available: true } : { available: false, problems };
}
