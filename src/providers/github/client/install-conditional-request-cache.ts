import type { Octokit } from '@octokit/rest';

type OctokitResponse = Awaited<ReturnType<Octokit['request']>>;

interface CachedResponse {
  validator: { header: 'if-none-match' | 'if-modified-since'; value: string };
  response: OctokitResponse;
}

/** The most responses kept; the oldest is dropped first. */
const DEFAULT_MAX_ENTRIES = 1000;

/**
 * Makes every GET conditional: the last response for the same URL and media type is kept with its `ETag`
 * (else `Last-Modified`), sent back as `If-None-Match` (`If-Modified-Since`), and returned again when GitHub
 * answers 304 Not Modified — which does not count against the primary rate limit. @octokit/request throws
 * on a 304, so the hook catches it. Nothing is served without asking GitHub: the cache saves quota, not
 * round trips, so a change is always seen.
 */
export function installConditionalRequestCache(
  octokit: Octokit,
  options: { maxEntries?: number } = {},
): { size(): number } {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, CachedResponse>();

  octokit.hook.wrap('request', async (request, requestOptions) => {
    if (requestOptions.method !== 'GET') return request(requestOptions);
    const endpoint = octokit.request.endpoint(requestOptions);
    const key = `${endpoint.url} ${String(endpoint.headers.accept ?? '')}`;
    const cached = entries.get(key);
    // In place: before-after-hook hands every hook the original options object, whatever the outer one passes.
    if (cached !== undefined) requestOptions.headers[cached.validator.header] = cached.validator.value;
    try {
      const response = await request(requestOptions);
      const validator = validatorOf(response.headers);
      entries.delete(key);
      if (validator !== null) {
        // A copy: callers may change what they get (octokit.paginate rewrites namespaced list bodies in place).
        entries.set(key, { validator, response: structuredClone(response) });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return response;
    } catch (error) {
      if (cached === undefined || !isNotModified(error)) throw error;
      // Refresh the entry's recency and keep the new rate-limit headers.
      entries.delete(key);
      entries.set(key, cached);
      const copy = structuredClone(cached.response);
      return { ...copy, headers: { ...copy.headers, ...error.response.headers } };
    }
  });
  return { size: () => entries.size };
}

function validatorOf(headers: OctokitResponse['headers']): CachedResponse['validator'] | null {
  if (typeof headers.etag === 'string') return { header: 'if-none-match', value: headers.etag };
  if (typeof headers['last-modified'] === 'string') {
    return { header: 'if-modified-since', value: headers['last-modified'] };
  }
  return null;
}

function isNotModified(error: unknown): error is { response: { headers: OctokitResponse['headers'] } } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    error.status === 304 &&
    'response' in error &&
    typeof error.response === 'object' &&
    error.response !== null &&
    'headers' in error.response
  );
}
