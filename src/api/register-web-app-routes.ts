import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { ApiError } from './api-error.ts';

/**
 * Where `npm run build` writes the web dashboard (scripts/build-web.js): `<repo>/dist/web/`. This file sits
 * two levels below the repository both as source (src/api/) and compiled (dist/api/), so one path serves both.
 */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  map: 'application/json; charset=utf-8',
};
/** Flat names only: no directories, no dots but the extension's, so no path can leave the root. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg|map)$/;

/**
 * The page may load only its own scripts and styles and talk only to this server: agent-written text the
 * dashboard shows cannot pull anything in or send anything out even if it slipped past Preact's escaping.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * The web dashboard (web/README.md) at `/` and its files at `/assets/<name>`, read from `root` on each
 * request (a rebuild needs no restart), each with its content type. Not built: 404 saying how to build it.
 */
export function registerWebAppRoutes(app: OpenAPIHono, root: string = DEFAULT_WEB_ROOT): void {
  const send = async (name: string): Promise<Response> => {
    const extension = ASSET_NAME.exec(name)?.[1];
    if (extension === undefined) throw new ApiError(404, 'not_found', `no asset ${name}`);
    let bytes: Buffer;
    try {
      bytes = await readFile(join(root, name));
    } catch (error) {
      if (!hasErrorCode(error, 'ENOENT')) throw error;
      throw new ApiError(
        404,
        'not_found',
        name === 'index.html'
          ? 'the web dashboard is not built: run `npm run build` in the flotilla checkout'
          : `no asset ${name}`,
      );
    }
    return new Response(new Uint8Array(bytes), {
      status: 200,
      headers: {
        'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
        ...SECURITY_HEADERS,
      },
    });
  };
  app.get('/', () => send('index.html'));
  app.get('/assets/:name', (c) => send(c.req.param('name')));
}
