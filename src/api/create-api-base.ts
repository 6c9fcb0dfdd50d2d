import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, buildErrorBody, toApiError } from './api-error.ts';
import { checkBearerToken } from './check-bearer-token.ts';

/** Request bodies above this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * An API app with the rules every `/api` route shares (src/api/README.md): errors as `{ error }` (400 naming
 * the field), the bearer token when one is set, JSON-only actions (no form posts, so no CSRF), the body
 * limit. `createApiApp` (the tracker's routes) and `createEngineApiApp` (`run --serve` on a provider without
 * a local tracker) start from it.
 */
export function createApiBase(options: { token?: string | undefined }): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const field = issue?.path.join('.') || undefined;
      const message = issue === undefined ? 'invalid request' : `${field ?? 'body'}: ${issue.message}`;
      return c.json(buildErrorBody(new ApiError(400, 'invalid_request', message, field)), 400);
    },
  });

  app.onError((error, c) => {
    const apiError = toApiError(error);
    return c.json(buildErrorBody(apiError), apiError.status);
  });
  app.notFound((c) =>
    c.json(buildErrorBody(new ApiError(404, 'not_found', `no route ${c.req.method} ${c.req.path}`)), 404),
  );

  const { token } = options;
  app.use('*', async (c, next) => {
    if (token !== undefined && !checkBearerToken(c.req.header('authorization'), token)) {
      c.header('WWW-Authenticate', 'Bearer');
      throw new ApiError(401, 'unauthorized', 'send Authorization: Bearer <FLOTILLA_SERVE_TOKEN>');
    }
    await next();
  });
  // Actions take JSON only: a form post from another site cannot send it without a CORS preflight, which
  // this server never answers (no CORS headers at all).
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json(\s*;|$)/i.test(type)) {
        throw new ApiError(415, 'unsupported_media_type', 'send the body as Content-Type: application/json');
      }
    }
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError(413, 'payload_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  return app;
}

/** Serves the OpenAPI document of every route registered on `app` so far, at `/api/openapi.json`. */
export function serveOpenApiDocument(app: OpenAPIHono): void {
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Flotilla HTTP API', version: '1' },
  });
}
