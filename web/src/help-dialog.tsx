import { WEB_KEY_BINDINGS } from './key-bindings.ts';

/** The keys, as `?` shows them (`WEB_KEY_BINDINGS`). */
export function HelpDialog() {
  return (
    <div class="help" role="dialog" aria-label="keys">
      <h2>Keys</h2>
      <dl>
        {WEB_KEY_BINDINGS.map((binding) => (
          <>
            <dt>{binding.keys}</dt>
            <dd>{binding.does}</dd>
          </>
        ))}
      </dl>
      <p class="dim">Esc or ? closes</p>
    </div>
  );
}
