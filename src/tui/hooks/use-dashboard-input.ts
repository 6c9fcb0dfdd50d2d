import { useCallback, useRef, useState } from 'react';
import { shortenTranscript } from '../../session-log/shorten-transcript.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { DashboardDeps } from '../dashboard-deps.ts';
import type { DashboardEffect, DashboardInputResult } from '../input/dashboard-effect.ts';
import {
  type DashboardInputState,
  INITIAL_DASHBOARD_INPUT_STATE,
  type OverlaySource,
} from '../input/dashboard-input-state.ts';
import {
  type DashboardKeyContext,
  type KeyPress,
  reduceDashboardKey,
} from '../input/reduce-dashboard-key.ts';
import { type DashboardSignal, reduceDashboardSignal } from '../input/reduce-dashboard-signal.ts';
import type { DetailLine } from '../view-model/build-detail-content.ts';
import { buildDiffLines } from '../view-model/build-diff-lines.ts';
import { buildStatsPanel } from '../view-model/build-stats-panel.ts';

export interface DashboardInput {
  state: DashboardInputState;
  pressKey(press: KeyPress, context: DashboardKeyContext): void;
  signal(signal: DashboardSignal): void;
}

/**
 * The input state as a small store over the pure reducers, and the runner of their effects. Keys can arrive
 * faster than renders (a paste, tmux send-keys): the state also lives in a ref, so the next key sees the
 * previous key's result before React has re-rendered.
 */
export function useDashboardInput(
  deps: DashboardDeps,
  exit: () => void,
  say: (text: string, tone: 'info' | 'error') => void,
): DashboardInput {
  const [state, setState] = useState(INITIAL_DASHBOARD_INPUT_STATE);
  const current = useRef(state);
  const runEffect = useRef<(effect: DashboardEffect) => void>(() => {});

  const apply = useCallback(({ state: next, effects }: DashboardInputResult) => {
    current.current = next;
    setState(next);
    for (const effect of effects) runEffect.current(effect);
  }, []);
  const signal = useCallback(
    (received: DashboardSignal) => apply(reduceDashboardSignal(current.current, received)),
    [apply],
  );
  const pressKey = useCallback(
    (press: KeyPress, context: DashboardKeyContext) =>
      apply(reduceDashboardKey(current.current, press, context)),
    [apply],
  );

  runEffect.current = (effect) => {
    switch (effect.kind) {
      case 'enqueue':
        return deps.engine.enqueue(effect.event);
      case 'say':
        return say(effect.text, effect.tone);
      case 'refresh':
        return deps.engine.refresh();
      case 'load-overlay': {
        const { title } = effect;
        loadOverlayLines(deps, effect.source).then(
          (lines) => signal({ type: 'overlay-loaded', title, content: { status: 'ok', value: lines } }),
          (error: unknown) =>
            signal({
              type: 'overlay-loaded',
              title,
              content: { status: 'error', message: messageOf(error) },
            }),
        );
        return;
      }
      case 'stop':
        // Leave either way. A failed stop is not lost: the caller (runControlPlaneDashboard) awaits the same
        // stop again once the dashboard has left, and reports it there.
        deps.stop().then(
          () => exit(),
          () => exit(),
        );
        return;
      case 'force-exit':
        return deps.forceExit();
    }
  };

  return { state, pressKey, signal };
}

async function loadOverlayLines(deps: DashboardDeps, source: OverlaySource): Promise<DetailLine[]> {
  if (source.kind === 'diff') return buildDiffLines(await deps.engine.getRevisionFiles(source.revisionID));
  if (source.kind === 'stats') {
    if (!deps.loadStatsRecords) throw new Error('the statistics are not available here');
    return buildStatsPanel(await deps.loadStatsRecords(), (deps.now ?? Date.now)());
  }
  if (source.kind === 'transcript') {
    const text = deps.readRunTranscript
      ? await deps.readRunTranscript(source.sessionID)
      : await readOwnFile(deps, source.path);
    return linesOf(shortenTranscript(text, { hint: '; `flotilla logs --full` has all' }));
  }
  const text = await deps.readTextFile(source.path);
  return linesOf(source.shortenTranscript ? shortenTranscript(text, { hint: '; the file has all' }) : text);
}

function readOwnFile(deps: DashboardDeps, path: string | null): Promise<string> {
  if (path === null) throw new Error('this run has no transcript on this machine');
  return deps.readTextFile(path);
}

function linesOf(text: string): DetailLine[] {
  return text.split('\n').map((line) => ({ text: line }));
}
