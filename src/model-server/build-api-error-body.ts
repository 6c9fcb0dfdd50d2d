import type { ModelApi } from './build-conversation-view.ts';
import { buildErrorBody } from './build-error-body.ts';
import { buildGeminiErrorBody } from './build-gemini-response.ts';
import { buildResponsesErrorBody } from './build-responses-error-body.ts';

/** An error body in the API's own shape, so each client reads it as it reads the real service's. */
export function buildApiErrorBody(
  api: ModelApi,
  status: number,
  message: string,
  type: string | undefined,
  seq: number,
): unknown {
  if (api === 'generate-content') return buildGeminiErrorBody(status, message);
  return api === 'messages'
    ? buildErrorBody(status, message, type, `req_scripted_${seq}`)
    : buildResponsesErrorBody(status, message, type);
}
