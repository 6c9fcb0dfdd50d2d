/**
 * Paces a poller's timer by a factor the provider asks for (`Provider.pollIntervalFactor`, e.g. the GitHub
 * provider's 1, 2, 4, 8 as its rate-limit budget drains): called on every tick of the configured interval,
 * it answers whether to poll on this one — every `factor`-th tick, read afresh after each poll, so the
 * interval stretches to factor × the configured one and shrinks back as soon as the budget recovers.
 */
export function createPollPacer(factor: () => number): () => boolean {
  let ticksToWait = 0;
  return () => {
    if (ticksToWait > 1) {
      ticksToWait--;
      return false;
    }
    const wanted = factor();
    ticksToWait = Number.isFinite(wanted) ? Math.max(1, Math.round(wanted)) : 1;
    return true;
  };
}
