/** A tracker API's rate-limit budget (the provider's `quota()`; the dashboard cannot import providers). */
export interface TrackerQuota {
  core: { limit: number; remaining: number; resetAt: Date } | null;
  pausedUntil: Date | null;
}

/** What the header shows of it: one short text, and whether it needs attention. */
export interface QuotaSummary {
  text: string;
  tone: 'normal' | 'low' | 'paused';
}

/** Under this share of the budget left, the header turns yellow. */
const LOW_SHARE = 0.2;

const clock = (date: Date) => date.toISOString().slice(11, 16);

/**
 * `GitHub 4987/5000 · resets 15:04`, `GitHub paused until 15:04` (a secondary limit or an exhausted budget:
 * every request waits); null before any response told the budget.
 */
export function buildQuotaSummary(quota: TrackerQuota | null, now: number): QuotaSummary | null {
  if (quota === null) return null;
  if (quota.pausedUntil !== null && quota.pausedUntil.getTime() > now) {
    return { text: `GitHub paused until ${clock(quota.pausedUntil)} UTC`, tone: 'paused' };
  }
  const core = quota.core;
  if (core === null) return null;
  return {
    text: `GitHub ${core.remaining}/${core.limit} · resets ${clock(core.resetAt)} UTC`,
    tone: core.remaining < core.limit * LOW_SHARE ? 'low' : 'normal',
  };
}
