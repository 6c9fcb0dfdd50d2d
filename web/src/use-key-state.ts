import { useCallback, useRef, useState } from 'preact/hooks';
import type { DashboardKeyState, PendingConfirm } from './handle-dashboard-key.ts';
import type { PanelName } from './panel-buttons.tsx';

/**
 * The dashboard state keys act on: the selected card, the open item (in the URL as `#item/<id>`), the help
 * and the action waiting for `y`. Each is also held in `keyState`, set with the state: a key pressed before
 * the next render (the browser delivers them as fast as they come) sees the previous key's result, as in the
 * terminal dashboard.
 */
export function useKeyState() {
  const [selectedID, setSelectedState] = useState<string | null>(null);
  const [openID, setOpenState] = useState<string | null>(() => readHash());
  const [help, setHelpState] = useState(false);
  // An action that asks first (as the terminal dashboard's): `y` does it, `n` or Esc drops it.
  const [confirm, setConfirmState] = useState<PendingConfirm | null>(null);
  const keyState = useRef<DashboardKeyState>({
    selectedID,
    openID,
    help,
    ...readPanels(),
    confirm,
    runs: [],
  });
  const setConfirm = useCallback((next: PendingConfirm | null) => {
    keyState.current.confirm = next;
    setConfirmState(next);
  }, []);
  const setSelectedID = useCallback((id: string | null) => {
    keyState.current.selectedID = id;
    setSelectedState(id);
  }, []);
  const setHelp = useCallback((shown: boolean) => {
    keyState.current.help = shown;
    setHelpState(shown);
  }, []);
  const open = useCallback((id: string | null) => {
    keyState.current.openID = id;
    setOpenState(id);
    history.replaceState(null, '', id === null ? '#' : `#item/${id}`);
  }, []);
  return { keyState, selectedID, setSelectedID, openID, open, help, setHelp, confirm, setConfirm };
}

/** The panel the URL opens (`#conversations`, `#proposals`). */
function readPanels(): Record<PanelName, boolean> {
  return { talk: location.hash === '#conversations', plans: location.hash === '#proposals' };
}

function readHash(): string | null {
  return /^#item\/(\d+)$/.exec(location.hash)?.[1] ?? null;
}
