import { accessSync, constants } from 'node:fs';
import { Codex } from '@openai/codex-sdk';
import type { CodexProvider } from './build-codex-config-toml.ts';
import { OPENAI_KEY_VARIABLES } from './build-codex-env.ts';

export interface CodexAvailability {
  available: boolean;
  /** One line per problem, saying what to do (empty when available). */
  problems: string[];
}

/**
 * The preflight `flotilla doctor` and dispatch can show before a codex run: the codex binary resolves (the
 * one `@openai/codex-sdk` bundles for this platform, or `codexPath`), and the provider's key variable is
 * set — for codex's built-in OpenAI provider `CODEX_API_KEY` or `OPENAI_API_KEY` (a ChatGPT login in
 * ~/.codex is not used: every run has its own CODEX_HOME). Starts no process and sends nothing.
 */
export function checkCodexAvailability(input: {
  env: Readonly<Record<string, string | undefined>>;
  provider?: CodexProvider;
  codexPath?: string;
}): CodexAvailability {
  const problems: string[] = [];
  try {
    // The SDK's constructor locates its bundled binary (throwing when the platform package is missing); an
    // explicit path it takes as given, so that one is checked here.
    if (input.codexPath === undefined) new Codex();
    else accessSync(input.codexPath, constants.X_OK);
  } catch (error) {
    problems.push(`codex binary not found: ${error instanceof Error ? error.message : String(error)}`);
  }
  const keys = input.provider ? [input.provider.envKey] : [...OPENAI_KEY_VARIABLES];
  if (!keys.some((name) => (input.env[name] ?? '') !== '')) {
    problems.push(
      input.provider
        ? `no API key for the codex provider '${input.provider.id}': set ${input.provider.envKey}`
        : `no OpenAI API key for codex: set ${keys.join(' or ')}`,
    );
  }
  return { available: problems.length === 0, problems };
}
