import { type MutableRefObject, useCallback, useRef } from 'react';
import type { DashboardEngine } from '../dashboard-deps.ts';
import type { StreamBuffers } from '../streams/create-stream-buffers.ts';
import { useThrottledSubscription } from './use-throttled-subscription.ts';

/**
 * Engine and stream changes re-render at most this often (keys re-render at once). Ink re-tokenizes the whole
 * screen on each frame (~45 ms at 200×50, npm run bench:tui), so 5 background frames a second keep a busy
 * dashboard under half a core while a live stream still reads as live.
 */
const RENDER_INTERVAL_MS = 200;

/**
 * A version that changes (at most once per interval) when the engine's state or the stream on screen
 * changes. One throttle for both, so together they cost at most one frame per interval; agents writing where
 * nobody looks cost no frames. The caller sets `shownStream` each render: a session ID, '*' for any stream,
 * or null for none.
 */
export function useChangeVersion(
  engine: DashboardEngine,
  streams: StreamBuffers,
): { version: number; shownStream: MutableRefObject<string | null> } {
  const shownStream = useRef<string | null>(null);
  const subscribeChanges = useCallback(
    (listener: () => void) => {
      let seen = '';
      const unsubscribeState = engine.subscribe(listener);
      const unsubscribeStreams = streams.subscribe(() => {
        const sessionID = shownStream.current;
        if (sessionID === null) return;
        const buffer = sessionID === '*' ? null : streams.get(sessionID);
        const key = buffer ? `${sessionID}:${buffer.dropped + buffer.lines.length}:${buffer.ended}` : '';
        if (key !== '' && key === seen) return;
        seen = key;
        listener();
      });
      return () => {
        unsubscribeState();
        unsubscribeStreams();
      };
    },
    [engine, streams],
  );
  return { version: useThrottledSubscription(subscribeChanges, RENDER_INTERVAL_MS), shownStream };
}
