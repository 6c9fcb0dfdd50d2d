import { useEffect, useRef, useState } from 'preact/hooks';
import type { DiffResponse, LineComment } from './api-client.ts';
import { buildDiffAnchors, type DiffAnchor } from './build-diff-anchors.ts';

interface DiffViewProps {
  diff: DiffResponse;
  /** Line comments not sent yet: shown under their lines, each removable. */
  drafts: readonly LineComment[];
  /** Null when the revision cannot be reviewed now: no line takes a comment then. */
  onAdd: ((comment: LineComment) => void) | null;
  onRemove(index: number): void;
}

const sameLine = (anchor: DiffAnchor | null, other: DiffAnchor | null) =>
  anchor !== null && other !== null && anchor.path === other.path && anchor.line === other.line;

/**
 * The revision's diff in colour (the server's `buildDiffLines`), each line of the new version with a `+`
 * button that opens a line comment box under it; added comments wait as drafts under their lines until a
 * verdict sends them with the review.
 */
export function DiffView({ diff, drafts, onAdd, onRemove }: DiffViewProps) {
  const anchors = buildDiffAnchors(diff.files);
  const [open, setOpen] = useState<DiffAnchor | null>(null);
  return (
    <pre class="diff" data-testid="diff">
      {diff.lines.map((line, index) => {
        const anchor = anchors[index] ?? null;
        const classes = `diff-line${line.color ? ` diff-${line.color}` : ''}${line.bold ? ' bold' : ''}${line.dim ? ' dim' : ''}${line.rule ? ' rule' : ''}`;
        return (
          // Lines have no identity of their own; the list is replaced as a whole.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index}>
            <div class={classes}>
              {onAdd !== null && anchor !== null && (
                <button
                  type="button"
                  class="add-line-comment"
                  aria-label={`comment on ${anchor.path}:${anchor.line}`}
                  title={`comment on ${anchor.path}:${anchor.line}`}
                  onClick={() => setOpen(anchor)}
                >
                  +
                </button>
              )}
              {line.text || ' '}
            </div>
            {drafts.map((comment, draft) =>
              sameLine(anchor, comment) ? (
                <div
                  class="draft-comment"
                  data-testid="draft-comment"
                  key={`${comment.path}:${comment.line}:${comment.body}`}
                >
                  <span class="dim">your comment on line {comment.line} (sent with your verdict)</span>
                  <span class="text">{comment.body}</span>
                  <button type="button" onClick={() => onRemove(draft)}>
                    Remove
                  </button>
                </div>
              ) : null,
            )}
            {onAdd !== null && anchor !== null && sameLine(anchor, open) && (
              <LineCommentBox
                anchor={anchor}
                onAdd={(body) => {
                  onAdd({ ...anchor, body });
                  setOpen(null);
                }}
                onCancel={() => setOpen(null)}
              />
            )}
          </div>
        );
      })}
    </pre>
  );
}

interface LineCommentBoxProps {
  anchor: DiffAnchor;
  onAdd(body: string): void;
  onCancel(): void;
}

/** The box under a line: its text, Add (or Ctrl+Enter), Cancel (or Esc). */
function LineCommentBox({ anchor, onAdd, onCancel }: LineCommentBoxProps) {
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement | null>(null);
  useEffect(() => box.current?.focus(), []);
  const add = () => {
    if (text.trim() !== '') onAdd(text.trim());
  };
  return (
    <form
      class="text-form line-comment-box"
      data-testid="line-comment-box"
      onSubmit={(event) => {
        event.preventDefault();
        add();
      }}
    >
      <textarea
        name="line-comment"
        aria-label={`Line comment on ${anchor.path}:${anchor.line}`}
        placeholder={`what to change at ${anchor.path}:${anchor.line}`}
        rows={2}
        value={text}
        ref={box}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) add();
          if (event.key === 'Escape') onCancel();
        }}
      />
      <div class="buttons">
        <button type="submit" disabled={text.trim() === ''}>
          Add comment
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
