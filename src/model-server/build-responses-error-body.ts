const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

export interface ResponsesErrorBody {
  error: { message: string; type: string; param: null; code: string | null };
}

/**
 * An OpenAI-style error body (`{ error: { message, type, param, code } }`); the type defaults from the
 * status (400 invalid_request_error, 429 rate_limit_error, 5xx server_error …). codex 0.163 fails the turn
 * at once on a 400 and shows this body as the error message.
 */
export function buildResponsesErrorBody(status: number, message: string, type?: string): ResponsesErrorBody {
  return {
    error: {
      message,
      type: type ?? TYPE_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: null,
      code: null,
    },
  };
}
