/**
 * The cache @octokit/auth-app keeps installation tokens in (its `cache` option), keyed by installation and
 * permissions; a value is `token|createdAt|expiresAt|…`. Its own cache keeps a token 59 minutes from its
 * creation whatever GitHub says; this one drops it `refreshBeforeExpiryMs` before the `expires_at` GitHub
 * sent, so the next request makes a new token before the old one can be refused mid-run.
 */
export function createInstallationTokenCache(
  options: { refreshBeforeExpiryMs?: number | undefined; now?: () => number } = {},
) {
  const margin = options.refreshBeforeExpiryMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, string>();
  return {
    get(key: string): string | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      const expiresAt = Date.parse(value.split('|')[2] ?? '');
      if (!Number.isFinite(expiresAt) || expiresAt - margin <= now()) {
        entries.delete(key);
        return undefined;
      }
      return value;
    },
    set(key: string, value: string): void {
      entries.set(key, value);
    },
  };
}
