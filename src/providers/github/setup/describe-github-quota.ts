import type { ProviderQuota } from '../../types.ts';

/** `4 987/5 000 left, resets 15:04 UTC` (and `paused until …`): for doctor and `github check`. */
export function describeGitHubQuota(quota: ProviderQuota, now: Date = new Date()): string {
  const core = quota.core;
  const budget =
    core === null
      ? 'budget not reported yet'
      : `${core.remaining}/${core.limit} requests left, resets ${core.resetAt.toISOString().slice(11, 16)} UTC`;
  const paused =
    quota.pausedUntil !== null && quota.pausedUntil > now
      ? `; paused until ${quota.pausedUntil.toISOString().slice(11, 19)} UTC`
      : '';
  return `${budget}${paused}`;
}
