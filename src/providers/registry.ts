import type { z } from 'zod';
import type { githubConfigSchema } from './github/github-config-schema.ts';
import { githubProvider } from './github/github-provider-descriptor.ts';
import { localProvider } from './local/local-provider-descriptor.ts';
import type { ProviderDescriptor } from './provider-descriptor.ts';

/**
 * Every provider (tracker) Flotilla knows, one line each: the config schema, the composition root,
 * `flotilla doctor` and the CLI loop over this list. The first is the default provider. Adding a provider is
 * its folder plus one line here (test/architecture/provider-names.test.ts holds it so).
 */
export const PROVIDER_REGISTRY = [
  localProvider,
  githubProvider,
] as const satisfies readonly ProviderDescriptor<
  // biome-ignore lint/suspicious/noExplicitAny: each descriptor's settings are its own block's; see findProvider.
  any
>[];

/**
 * The config blocks of the providers that have one, keyed by provider name: one member per such provider,
 * beside its line above, so `config.<name>` is typed.
 */
export interface ProviderConfigShape {
  github: z.ZodOptional<typeof githubConfigSchema>;
}

/** The zod shape of the providers' config blocks (each optional; required when `provider` names it). */
export function buildProviderConfigShape(): ProviderConfigShape {
  const entries = PROVIDER_REGISTRY.flatMap((provider) =>
    provider.config === undefined ? [] : [[provider.name, provider.config.schema.optional()] as const],
  );
  // Built from the registry; the interface above names the same blocks, typed.
  return Object.fromEntries(entries) as unknown as ProviderConfigShape;
}

/**
 * The descriptor of the provider with this name, or undefined. Call its methods only with the settings its
 * own config block validated (`settingsOf`).
 */
export function findProvider(name: string): ProviderDescriptor<unknown> | undefined {
  return PROVIDER_REGISTRY.find((provider) => provider.name === name) as
    | ProviderDescriptor<unknown>
    | undefined;
}

/** The provider's config block as the loaded config holds it (`config[<name>]`), or undefined without one. */
export function providerSettingsOf(
  provider: ProviderDescriptor<unknown>,
  config: Readonly<Record<string, unknown>>,
): unknown {
  return provider.config === undefined ? undefined : config[provider.name];
}
