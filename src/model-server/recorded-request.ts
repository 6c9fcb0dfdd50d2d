import type { IncomingHttpHeaders } from 'node:http';

/**
 * What a request was, as classified by the server:
 * - `step`: a conversation request answered from a route's step;
 * - `side`: a Messages request without tools or with `output_config.format` (answered with a short text);
 * - `exhausted`: a conversation request beyond the last step of its route;
 * - `unrouted`: a conversation request no route matched;
 * - `invalid`: a Messages request whose body is not a JSON object;
 * - `count_tokens`, `models`, `probe` (HEAD, GET /): harmless startup calls;
 * - `unknown`: any other route (answered 404);
 * - `connect`: a proxy `CONNECT host:port` — a client given the server as its HTTPS proxy tried to reach
 *   outside 127.0.0.1 (answered 502).
 */
export type RequestKind =
  | 'step'
  | 'side'
  | 'exhausted'
  | 'unrouted'
  | 'invalid'
  | 'count_tokens'
  | 'models'
  | 'probe'
  | 'unknown'
  | 'connect';

export interface RecordedRequest {
  /** 1-based order of arrival. */
  seq: number;
  /** Milliseconds since the server started. */
  atMs: number;
  method: string;
  /** Path with query string, e.g. `/v1/messages?beta=true`. */
  url: string;
  kind: RequestKind;
  route?: string;
  /** Step index (= assistant turns in the request) for step and exhausted requests. */
  stepIndex?: number;
  stepName?: string;
  /** How many times this step has been requested so far, this request included (retries count). */
  attempt?: number;
  body: unknown;
  headers: IncomingHttpHeaders;
  /** HTTP status answered (0 until the answer starts). */
  status: number;
  /** Unmet expectations of the step, and server-side problems (unknown template variables, callbacks). */
  unmet: string[];
  /** The client went away (or the server closed) before the answer was complete. */
  aborted: boolean;
  /** Milliseconds from arrival until the answer was complete or aborted. */
  durationMs?: number;
}
