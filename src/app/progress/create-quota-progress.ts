import type { ProviderQuota } from '../../providers/types.ts';

/** Under this share of the budget left, a progress line says so (once per window). */
const LOW_SHARE = 0.2;

const clock = (date: Date) => date.toISOString().slice(11, 19);

/**
 * Progress lines about the tracker API's rate-limit budget (GitHub), from successive `quota()` readings:
 * the budget once it is first known, a pause (a secondary limit or an exhausted budget: every request waits
 * until then), and the budget running low — each once, not on every reading. Returns null when there is
 * nothing new to say.
 */
export function createQuotaProgress(): (quota: ProviderQuota, now: number) => string | null {
  let announced = false;
  let reportedPause = 0;
  let lowWindow = 0;
  return (quota, now) => {
    const core = quota.core;
    const pausedUntil = quota.pausedUntil?.getTime() ?? 0;
    if (pausedUntil > now && pausedUntil !== reportedPause) {
      reportedPause = pausedUntil;
      return `GitHub rate limit: requests paused until ${clock(new Date(pausedUntil))} UTC${core === null ? '' : ` (${core.remaining}/${core.limit} left)`}; work resumes then`;
    }
    if (core === null) return null;
    const budget = `${core.remaining}/${core.limit} requests left, resets ${clock(core.resetAt)} UTC`;
    if (!announced) {
      announced = true;
      return `GitHub rate limit: ${budget}`;
    }
    const window = core.resetAt.getTime();
    if (core.remaining < core.limit * LOW_SHARE && lowWindow !== window) {
      lowWindow = window;
      return `GitHub rate limit low: ${budget}; polling slows down`;
    }
    return null;
  };
}
