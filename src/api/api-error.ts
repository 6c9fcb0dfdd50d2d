import { HTTPException } from 'hono/http-exception';
import { CliError } from '../cli/support/cli-error.ts';

/** The body of every error response: `{ error: { code, message, field? } }`. */
export interface ApiErrorBody {
  error: { code: string; message: string; field?: string };
}

/** An error the API answers with `status` and a JSON error body. */
export class ApiError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 | 501;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: ApiError['status'], code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/**
 * Maps what the shared CLI cores throw to an ApiError: exit 2 (validation) is 400, an unknown work item is
 * 404, any other exit 1 (the tracker's state does not allow it) is 409; anything else is a 500 whose message
 * is generic, so no internal detail (paths, env values) reaches a client.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Hono's own 400 (a body that is not JSON).
  if (error instanceof HTTPException && error.status === 400)
    return new ApiError(400, 'invalid_request', 'the body is not valid JSON');
  if (error instanceof CliError) {
    if (error.exitCode === 2) return new ApiError(400, 'invalid_request', error.message);
    if (/^work item #\S+ does not exist/.test(error.message))
      return new ApiError(404, 'not_found', error.message);
    return new ApiError(409, 'conflict', error.message);
  }
  return new ApiError(500, 'internal', 'internal error; see .flotilla/logs/flotilla.log');
}

export function buildErrorBody(error: ApiError): ApiErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
    },
  };
}
