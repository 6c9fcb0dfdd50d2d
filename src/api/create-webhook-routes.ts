import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ProviderWebhooks, WebhookReceiver } from '../providers/provider-descriptor.ts';

/**
 * A provider's webhook route (`POST /webhooks/github`), served by `flotilla run --serve` beside `/api` and
 * outside its bearer token (GitHub cannot send one): each delivery is authenticated by the receiver instead
 * (its signature). Mounted only with a receiver, which exists only with the secret: never unverified.
 */
export function createWebhookRoutes(
  webhooks: Pick<ProviderWebhooks, 'path' | 'maxBodyBytes'> & { receiver: WebhookReceiver },
): Hono {
  const app = new Hono();
  app.post(
    webhooks.path,
    bodyLimit({
      maxSize: webhooks.maxBodyBytes,
      onError: (c) =>
        c.json({ ok: false, message: `bodies are limited to ${webhooks.maxBodyBytes} bytes` }, 413),
    }),
    async (c) => {
      const body = new Uint8Array(await c.req.arrayBuffer());
      const answer = webhooks.receiver.receive({ header: (name) => c.req.header(name), body });
      return c.json(answer.body, answer.status);
    },
  );
  return app;
}
