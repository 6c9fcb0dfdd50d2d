import { DOCS } from './create-fake-github-store.ts';

/** An answer the fake gives instead of the real one, to the next matching requests. */
export type FakeGitHubFault =
  | { kind: 'secondary-rate-limit'; retryAfterSeconds: number; status?: 403 | 429 }
  | { kind: 'server-error'; status: 500 | 502 | 503 | 504 }
  | { kind: 'bad-credentials' };

/** The injected fault's answer: status, GitHub's error body and headers. */
export function answerFault(fault: FakeGitHubFault): {
  status: number;
  body: unknown;
  headers: Record<string, string>;
} {
  switch (fault.kind) {
    case 'secondary-rate-limit':
      // "you will receive a 403 or 429 response" with `retry-after` (GitHub's rate limit docs).
      return {
        status: fault.status ?? 403,
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
          status: String(fault.status ?? 403),
        },
      };
    case 'server-error':
      return { status: fault.status, headers: {}, body: { message: 'Server Error' } };
    case 'bad-credentials':
      return {
        status: 401,
        headers: {},
        body: { message: 'Bad credentials', documentation_url: DOCS, status: '401' },
      };
  }
}
