import { useState } from 'preact/hooks';

interface TextFormProps {
  label: string;
  name: string;
  register(element: HTMLTextAreaElement | null): void;
  onSubmit(text: string): Promise<boolean>;
}

/** A text box and its button; Ctrl+Enter sends too. Cleared once sent. */
export function TextForm({ label, name, register, onSubmit }: TextFormProps) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const send = () => {
    if (text.trim() === '' || busy) return;
    setBusy(true);
    void onSubmit(text.trim())
      .then((sent) => {
        if (sent) setText('');
      })
      .finally(() => setBusy(false));
  };
  return (
    <form
      class="text-form"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        name={name}
        aria-label={label}
        ref={register}
        value={text}
        rows={3}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send();
        }}
      />
      <button type="submit" disabled={busy || text.trim() === ''}>
        {label}
      </button>
    </form>
  );
}
