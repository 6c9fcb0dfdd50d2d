import { useEffect, useState } from 'preact/hooks';
import { ANSWER_COMMENT_MARKER, QUESTIONS_COMMENT_MARKER } from '../../src/domain/agent-questions.ts';
import {
  api,
  type DiffResponse,
  type EngineAction,
  type RunSummary,
  type TranscriptResponse,
  type WorkItemDetails,
} from './api-client.ts';

interface ItemDetailProps {
  id: string;
  /** Bumped on every live event: the detail reloads. */
  version: number;
  /** Where the answer and comment boxes register, so the `a` and `c` keys can focus them. */
  boxes: { answer: HTMLTextAreaElement | null; comment: HTMLTextAreaElement | null };
  onClose(): void;
  onDone(message: string): void;
}

interface Loaded {
  details: WorkItemDetails;
  runs: RunSummary[];
  diff: DiffResponse | string | null;
  transcript: TranscriptResponse | string | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One item: what it is, what the agent asks, its context, checks, reviews, diff, transcript and comments,
 * with the actions it allows. Reloads on every live event (`version`), keeping what is typed in the boxes.
 */
export function ItemDetail({ id, version, boxes, onClose, onDone }: ItemDetailProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger (a live event)
  useEffect(() => {
    let stale = false;
    const load = async () => {
      const [details, runs] = await Promise.all([api.details(id), api.itemRuns(id)]);
      const withLog = runs.find((run) => run.logFilePath !== null);
      const [diff, transcript] = await Promise.all([
        details.revision === null ? null : api.diff(id).catch(messageOf),
        withLog === undefined ? null : api.transcript(withLog.sessionID).catch(messageOf),
      ]);
      if (!stale) {
        setLoaded({ details, runs, diff, transcript });
        setError(null);
      }
    };
    load().catch((reason: unknown) => {
      if (!stale) setError(messageOf(reason));
    });
    return () => {
      stale = true;
    };
  }, [id, version]);

  /** Says how it went in the footer; true when the server took it (a text box is cleared then). */
  const act = (what: string, run: () => Promise<unknown>) =>
    run().then(
      () => {
        onDone(`${what} #${id}: done`);
        return true;
      },
      (reason: unknown) => {
        onDone(`${what} #${id}: ${messageOf(reason)}`);
        return false;
      },
    );

  return (
    <aside class="detail" data-testid="detail" aria-label={`item ${id}`}>
      <button type="button" class="close" onClick={onClose} title="Esc">
        ✕
      </button>
      {error !== null && (
        <p class="error">
          cannot load #{id}: {error}
        </p>
      )}
      {loaded === null || loaded.details.id !== id ? (
        <p class="dim">loading #{id}…</p>
      ) : (
        <DetailBody loaded={loaded} boxes={boxes} act={act} />
      )}
    </aside>
  );
}

interface DetailBodyProps {
  loaded: Loaded;
  boxes: ItemDetailProps['boxes'];
  act(what: string, run: () => Promise<unknown>): Promise<boolean>;
}

function DetailBody({ loaded, boxes, act }: DetailBodyProps) {
  const { details, runs, diff, transcript } = loaded;
  const { id } = details;
  const questions = [...details.comments]
    .reverse()
    .find((comment) => comment.body.includes(QUESTIONS_COMMENT_MARKER));
  const waiting = details.status === 'waiting-for-input';
  const engine = (action: EngineAction) => () => act(action, () => api.engineAction(id, action));
  return (
    <>
      <h2>
        #{id} {details.title}
      </h2>
      <p class="meta">
        <span class={`status status-${details.status}`} data-testid="detail-status">
          {details.status}
        </span>{' '}
        · {details.kind} · priority {details.priority ?? '-'}
        {details.labels.length > 0 && ` · ${details.labels.join(', ')}`}
        {details.waitingFor.length > 0 &&
          ` · waits for ${details.waitingFor.map((open) => `#${open.id} (${open.status})`).join(', ')}`}
      </p>
      <div class="actions">
        {(details.status === 'pending' || details.status === 'blocked') && (
          <button
            type="button"
            data-action="dispatch"
            onClick={() => act('dispatch', () => api.dispatch(id))}
          >
            Dispatch <kbd>d</kbd>
          </button>
        )}
        {runs[0]?.status === 'failed' && (
          <button type="button" onClick={engine('retry')}>
            Retry
          </button>
        )}
        {(runs[0]?.status === 'running' || runs[0]?.status === 'requested') && (
          <button type="button" onClick={engine('cancel')}>
            Cancel
          </button>
        )}
        {(details.status === 'blocked' || details.status === 'needs-refinement') && (
          <button type="button" onClick={engine('unblock')}>
            Unblock
          </button>
        )}
        {details.status === 'approved' && (
          <button type="button" onClick={engine('merge')}>
            Merge
          </button>
        )}
      </div>

      {questions !== undefined && (
        <section class="questions" data-testid="questions">
          <h3>{waiting ? 'The agent asks' : 'The agent asked'}</h3>
          <pre class="text">{questions.body.replace(QUESTIONS_COMMENT_MARKER, '').trim()}</pre>
          {waiting && (
            <TextForm
              label="Answer"
              name="answer"
              register={(element) => {
                boxes.answer = element;
              }}
              onSubmit={(text) => act('answer', () => api.answer(id, text))}
            />
          )}
        </section>
      )}

      <section>
        <h3>Description</h3>
        <pre class="text">{details.body.trim() === '' ? '(no description)' : details.body}</pre>
      </section>

      {details.taskContext !== undefined && details.taskContext.length > 0 && (
        <section>
          <h3>Task context</h3>
          <ul class="context">
            {details.taskContext.map((entry) => (
              <li key={entry.id}>
                <span class="dim">
                  {entry.role} · {entry.type} · {new Date(entry.createdAt).toLocaleString()}
                </span>
                <pre class="text">{entry.summary}</pre>
              </li>
            ))}
          </ul>
        </section>
      )}

      {details.revision !== null && (
        <section>
          <h3>
            Revision {details.revision.headRef} ({details.revision.state})
          </h3>
          <p data-testid="checks">
            checks:{' '}
            <span class={`checks checks-${details.revision.pipeline?.status ?? 'unknown'}`}>
              {details.revision.pipeline?.status ?? 'unknown'}
            </span>
            {details.revision.pipeline?.reason ? ` — ${details.revision.pipeline.reason}` : ''}
          </p>
          {details.revision.reviews.map((review) => (
            <div class="review" key={review.id}>
              <p>
                <strong>{review.verdict ?? review.state}</strong>
                {review.round === null ? '' : ` · round ${review.round}`} · {review.author}
              </p>
              <pre class="text">{review.body}</pre>
              {review.comments.map((comment) => (
                <p class="line-comment" key={`${comment.path}:${comment.line}:${comment.body}`}>
                  <code>
                    {comment.path}
                    {comment.line === null ? '' : `:${comment.line}`}
                  </code>{' '}
                  {comment.body}
                </p>
              ))}
            </div>
          ))}
          <h3>Diff</h3>
          {typeof diff === 'string' ? (
            <p class="error">{diff}</p>
          ) : diff === null ? null : (
            <pre class="diff" data-testid="diff">
              {diff.lines.map((line, index) => (
                <div
                  // Lines have no identity of their own; the list is replaced as a whole.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  key={index}
                  class={`${line.color ? `diff-${line.color}` : ''}${line.bold ? ' bold' : ''}${line.dim ? ' dim' : ''}${line.rule ? ' rule' : ''}`}
                >
                  {line.text || ' '}
                </div>
              ))}
            </pre>
          )}
        </section>
      )}

      <section>
        <h3>Runs</h3>
        {runs.length === 0 ? (
          <p class="dim">no runs yet</p>
        ) : (
          <ul class="runs">
            {runs.map((run) => (
              <li key={run.sessionID}>
                {run.role} <span class={`run-${run.status}`}>{run.status}</span> ·{' '}
                <code>{run.sessionID.slice(0, 8)}</code>
                {run.costUSD === null ? '' : ` · $${run.costUSD.toFixed(2)}`}
                {run.error ? ` · ${run.error}` : ''}
              </li>
            ))}
          </ul>
        )}
        {transcript !== null && (
          <>
            <h3>Transcript</h3>
            {typeof transcript === 'string' ? (
              <p class="error">{transcript}</p>
            ) : (
              <pre class="transcript" data-testid="transcript">
                {transcript.text}
              </pre>
            )}
          </>
        )}
      </section>

      <section>
        <h3>Comments</h3>
        {details.comments.map((comment) => (
          <div class="comment" key={comment.id}>
            <p class="dim">
              {comment.author} · {comment.createdAt}
              {comment.body.includes(ANSWER_COMMENT_MARKER) ? ' · answer' : ''}
            </p>
            <pre class="text">
              {comment.body.replace(ANSWER_COMMENT_MARKER, '').replace(QUESTIONS_COMMENT_MARKER, '').trim()}
            </pre>
          </div>
        ))}
        <TextForm
          label="Comment"
          name="comment"
          register={(element) => {
            boxes.comment = element;
          }}
          onSubmit={(text) => act('comment', () => api.comment(id, text))}
        />
      </section>
    </>
  );
}

interface TextFormProps {
  label: string;
  name: string;
  register(element: HTMLTextAreaElement | null): void;
  onSubmit(text: string): Promise<boolean>;
}

/** A text box and its button; Ctrl+Enter sends too. Cleared once sent. */
function TextForm({ label, name, register, onSubmit }: TextFormProps) {
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
