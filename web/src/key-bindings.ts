/** The web dashboard's keys, like the terminal dashboard's (src/tui/key-bindings.ts); `?` lists them. */
export const WEB_KEY_BINDINGS: readonly { keys: string; does: string }[] = [
  { keys: 'j / k, ↓ / ↑', does: 'next / previous item in the column' },
  { keys: 'h / l, ← / →', does: 'previous / next column' },
  { keys: 'Enter', does: 'open the selected item' },
  { keys: 'Esc', does: 'close the item (or this help), leave a text box' },
  { keys: 'd', does: 'dispatch the selected item (pending → ready)' },
  { keys: 'a', does: 'answer the agent’s questions (item open)' },
  { keys: 'c', does: 'comment on the item (item open)' },
  { keys: 'f', does: 'refresh now' },
  { keys: '?', does: 'show or hide these keys' },
];
