import { useCallback, useState } from 'preact/hooks';
import type { ProposalEntry } from './api-client.ts';

/** The panels under the board that a header button (and a key) shows or hides. */
export type PanelName = 'talk' | 'plans';

/**
 * The header's `N conversations` (`t`) and `N proposals` (`p`) buttons: each shows or hides its panel under
 * the board.
 */
export function PanelButtons(props: {
  /** How many conversations and proposals. */
  counts: readonly [number, number];
  shown: Record<PanelName, boolean>;
  onToggle(name: PanelName, shown: boolean): void;
}) {
  const toggle = (name: PanelName) => () => props.onToggle(name, !props.shown[name]);
  return (
    <>
      <button type="button" class="link" data-testid="conversations-toggle" onClick={toggle('talk')}>
        {props.counts[0]} conversations <kbd>t</kbd>
      </button>
      <button type="button" class="link" data-testid="proposals-toggle" onClick={toggle('plans')}>
        {props.counts[1]} proposals <kbd>p</kbd>
      </button>
    </>
  );
}

/**
 * Which panels are shown, `setPanel` and `hide` (the keys read the latest from `keyState.current`, set with the
 * state, as the dashboard's other key state), and the pending proposals nobody decided yet, which the
 * dashboard's reload sets.
 */
export function usePanels(keyState: { current: Record<PanelName, boolean> }) {
  const [panels, setPanels] = useState(() => ({
    talk: keyState.current.talk,
    plans: keyState.current.plans,
  }));
  const setPanel = useCallback(
    (name: PanelName, shown: boolean) => {
      keyState.current[name] = shown;
      setPanels((previous) => ({ ...previous, [name]: shown }));
    },
    [keyState],
  );
  const [proposals, setProposals] = useState<ProposalEntry[]>([]);
  const hide = { talk: () => setPanel('talk', false), plans: () => setPanel('plans', false) };
  return { panels, setPanel, hide, proposals, setProposals };
}
