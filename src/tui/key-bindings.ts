/** Every key the dashboard answers to; the `?` overlay lists exactly these. */
export const KEY_BINDINGS: readonly { keys: string; description: string }[] = [
  { keys: '↑ ↓  j k', description: 'select an item (or scroll the detail pane when it has focus)' },
  { keys: 'PgUp PgDn', description: 'move a page' },
  {
    keys: 'Home End  g G',
    description: 'first / last (End in the detail pane follows the live stream again)',
  },
  { keys: 'Tab  Enter', description: 'switch focus between the list and the detail pane' },
  { keys: 'd', description: 'dispatch an implementor, or retry after a failure (asks first)' },
  { keys: 'r', description: 'run the reviewer on an item in review (asks first)' },
  { keys: 'x', description: 'cancel the running agent (asks first; the item is parked as blocked)' },
  {
    keys: 'a',
    description:
      "answer a waiting item's agent questions (type, Enter sends, Esc drops); the session resumes",
  },
  { keys: 'u', description: 'move a blocked / needs-refinement item back to pending (fresh retry budget)' },
  {
    keys: 'm',
    description: 'merge an approved revision into the default branch and close the item (asks first)',
  },
  { keys: 'v', description: "show the revision's diff, file by file, coloured (scroll; Esc closes)" },
  { keys: 'l', description: "open the latest run's transcript" },
  { keys: 'c', description: "open the revision's checks log (local checks)" },
  {
    keys: '/',
    description: 'filter the list by #id, title, status, kind or priority (Enter keeps it, Esc clears it)',
  },
  {
    keys: 'p',
    description:
      "show the planner's live stream / back to the item; there d plans the approved specs now, x cancels",
  },
  {
    keys: 's',
    description:
      'stats of the last 7 days (cost and time per item, first-pass approval, failures, spend, trend); s or Esc closes',
  },
  { keys: 'f', description: 'refresh: poll the tracker and specs now' },
  { keys: '?', description: 'this help' },
  { keys: 'q  Ctrl-C', description: 'quit (asks when agents are running; Ctrl-C twice forces)' },
  { keys: 'y n  Esc', description: 'answer a question / close an overlay' },
];
