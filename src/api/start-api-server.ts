import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ListenAddress } from './parse-listen-address.ts';

export interface RunningApiServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on `address` (port 0: any free port). A non-loopback address without a token is refused here, so
 * no caller can open the API to the network unauthenticated (fails closed).
 */
export async function startApiServer(
  app: {
    fetch: (request: Request, env: { incoming: unknown; outgoing: unknown }) => Response | Promise<Response>;
  },
  address: ListenAddress,
  options: { tokenSet: boolean },
): Promise<RunningApiServer> {
  if (!address.loopback && !options.tokenSet) {
    throw new Error(
      `refusing to listen on ${address.host}: a non-loopback address needs FLOTILLA_SERVE_TOKEN set (clients send Authorization: Bearer <token>)`,
    );
  }
  return await new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, hostname: address.host, port: address.port },
      (info: AddressInfo) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${host}:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              if ('closeAllConnections' in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
