import { describe, expect, it } from 'vitest';
import { createInMemoryProvider } from '../../test/support/in-memory-provider/create-in-memory-provider.ts';
import type { ProviderChange } from '../providers/types.ts';
import { withChangeFeed } from './with-change-feed.ts';

function feedOf(factor: number) {
  const listeners = new Set<(change: ProviderChange) => void>();
  return {
    emit: (change: ProviderChange) => {
      for (const listener of listeners) listener(change);
    },
    onChange(listener: (change: ProviderChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pollIntervalFactor: () => factor,
  };
}

describe('withChangeFeed', () => {
  it("passes the feed's changes to the engine's listener and unsubscribes from both", () => {
    const feed = feedOf(4);
    const provider = withChangeFeed(createInMemoryProvider(), feed);
    const seen: ProviderChange[] = [];
    const unsubscribe = provider.onChange?.((change) => seen.push(change));
    feed.emit('revisions');
    unsubscribe?.();
    feed.emit('workItems');
    expect(seen).toEqual(['revisions']);
  });

  it("polls at the larger of the provider's and the feed's factors", () => {
    const base = createInMemoryProvider();
    expect(withChangeFeed(base, feedOf(4)).pollIntervalFactor?.()).toBe(4);
    expect(withChangeFeed({ ...base, pollIntervalFactor: () => 8 }, feedOf(4)).pollIntervalFactor?.()).toBe(
      8,
    );
    expect(withChangeFeed({ ...base, pollIntervalFactor: () => 2 }, feedOf(1)).pollIntervalFactor?.()).toBe(
      2,
    );
  });
});
