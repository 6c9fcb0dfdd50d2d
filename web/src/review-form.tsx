import { useState } from 'preact/hooks';
import type { HumanVerdict, LineComment } from './api-client.ts';

export const VERDICT_LABELS: Record<HumanVerdict, string> = {
  approve: 'Approve',
  'request-changes': 'Request changes',
  comment: 'Comment',
};

interface ReviewFormProps {
  /** Line comments added on the diff, sent with the verdict. */
  drafts: readonly LineComment[];
  register(element: HTMLTextAreaElement | null): void;
  onSubmit(verdict: HumanVerdict, text: string): Promise<boolean>;
}

/**
 * Your verdict on the revision (as `flotilla review`): approve (text optional), request changes or comment
 * (text or a line comment required; the server says so otherwise), with the line comments added on the
 * diff. Cleared once recorded.
 */
export function ReviewForm({ drafts, register, onSubmit }: ReviewFormProps) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const send = (verdict: HumanVerdict) => {
    if (busy) return;
    setBusy(true);
    void onSubmit(verdict, text.trim())
      .then((sent) => {
        if (sent) setText('');
      })
      .finally(() => setBusy(false));
  };
  const saysSomething = text.trim() !== '' || drafts.length > 0;
  return (
    <form
      class="text-form review-form"
      data-testid="review"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <h3>Your review</h3>
      <textarea
        name="review"
        aria-label="Review"
        placeholder="what to change (to request changes or comment: this, or line comments on the diff's + buttons)"
        ref={register}
        value={text}
        rows={3}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <p class="dim" data-testid="review-drafts">
        {drafts.length === 0
          ? 'no line comments (add them with + on a line of the diff)'
          : `${drafts.length} line comment${drafts.length === 1 ? '' : 's'} go with your verdict: ${drafts.map((comment) => `${comment.path}:${comment.line}`).join(', ')}`}
      </p>
      <div class="buttons">
        {(Object.keys(VERDICT_LABELS) as HumanVerdict[]).map((verdict) => (
          <button
            type="button"
            key={verdict}
            data-verdict={verdict}
            disabled={busy || (verdict !== 'approve' && !saysSomething)}
            onClick={() => send(verdict)}
          >
            {VERDICT_LABELS[verdict]}
          </button>
        ))}
      </div>
    </form>
  );
}
