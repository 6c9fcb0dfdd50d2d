import type { Hono } from 'hono';
import type { FlotillaConfig } from '../../config/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { WebhookReceiver } from '../../providers/provider-descriptor.ts';
import { findProvider, providerSettingsOf } from '../../providers/registry.ts';

/** What `run --serve` mounts for the provider's webhooks, and the start-up line's words about them. */
export interface RunWebhooks {
  receiver?: WebhookReceiver;
  routes?: Hono;
  /** `GitHub webhooks on <url>/webhooks/github`, or why they are off. */
  describe(baseUrl: string): string;
}

/**
 * The configured provider's webhooks (its `openWebhooks` capability) for `run --serve`: the receiver (the
 * engine's change feed) and its route, or nothing when the provider has none or it is not configured (no
 * secret: an unverifiable route is never mounted). Null: the provider has no webhooks at all.
 */
export async function openProviderWebhooks(
  config: FlotillaConfig,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): Promise<RunWebhooks | null> {
  const descriptor = findProvider(config.provider);
  const settings = descriptor === undefined ? undefined : providerSettingsOf(descriptor, config);
  if (descriptor?.openWebhooks === undefined || settings === undefined) return null;
  const webhooks = await descriptor.openWebhooks(settings, env, logger);
  const { receiver } = webhooks;
  if (receiver === undefined) return { describe: () => webhooks.off };
  const { createWebhookRoutes } = await import('../../api/create-webhook-routes.ts');
  return {
    receiver,
    routes: createWebhookRoutes({ ...webhooks, receiver }),
    describe: (baseUrl) => `webhooks on ${baseUrl}${webhooks.path}`,
  };
}
