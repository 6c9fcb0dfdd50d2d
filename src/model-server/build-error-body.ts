const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export interface ErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/** An Anthropic-style error body; the type defaults from the status (500 api_error, 529 overloaded_error…). */
export function buildErrorBody(
  status: number,
  message: string,
  type?: string,
  requestId = 'req_scripted',
): ErrorBody {
  return {
    type: 'error',
    error: {
      type: type ?? TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
      message,
    },
    request_id: requestId,
  };
}
