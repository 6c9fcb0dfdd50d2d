import type { Provider, ProviderChangeListener } from '../providers/types.ts';

/** Changes learnt outside the provider's own polls (GitHub's webhooks), and how slowly to poll meanwhile. */
export interface ChangeFeed {
  onChange(listener: ProviderChangeListener): () => void;
  pollIntervalFactor(): number;
}

/**
 * The provider as the engine sees it with `feed` added: its changes trigger polls like the provider's own
 * (`Provider.onChange`), and the poll timers stretch by the larger of the two factors (a draining GitHub
 * budget may ask for 8 while webhooks ask for 4).
 */
export function withChangeFeed<P extends Provider>(provider: P, feed: ChangeFeed): P {
  return {
    ...provider,
    onChange(listener) {
      const fromProvider = provider.onChange?.(listener);
      const fromFeed = feed.onChange(listener);
      return () => {
        fromProvider?.();
        fromFeed();
      };
    },
    pollIntervalFactor: () => Math.max(provider.pollIntervalFactor?.() ?? 1, feed.pollIntervalFactor()),
  };
}
