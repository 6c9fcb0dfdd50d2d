import { useEffect, useRef, useState } from 'preact/hooks';
import { ANSWER_COMMENT_MARKER, QUESTIONS_COMMENT_MARKER } from '../../src/domain/agent-questions.ts';
import {
  type AgentConversation,
  api,
  type ChecksResponse,
  type DiffResponse,
  type EngineAction,
  type LineComment,
  type RunSummary,
  type TranscriptResponse,
  type WorkItemDetails,
} from './api-client.ts';
import { ConversationList } from './conversation-list.tsx';
import { DiffView } from './diff-view.tsx';
import { ReviewForm, VERDICT_LABELS } from './review-form.tsx';

interface ItemDetailProps {
  id: string;
  /** Bumped on every live event: the detail reloads. */
  version: number;
  /** Where the text boxes register, so the keys can focus them (`a` answer, `R` review, `C` comment). */
  boxes: DetailBoxes;
  /** A section a key asked for (`v` diff, `l` transcript, `c` checks log): scrolled into view once loaded. */
  focus: { section: DetailSection; at: number } | null;
  onClose(): void;
  onDone(message: string): void;
}

export interface DetailBoxes {
  answer: HTMLTextAreaElement | null;
  comment: HTMLTextAreaElement | null;
  review: HTMLTextAreaElement | null;
}

export type DetailSection = 'diff' | 'transcript' | 'checks';

interface Loaded {
  details: WorkItemDetails;
  runs: RunSummary[];
  /** What its agents asked other agents and were asked (`flotilla conversations --item`). */
  conversations: AgentConversation[];
  diff: DiffResponse | string | null;
  transcript: TranscriptResponse | string | null;
  checks: ChecksResponse | string | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One item: what it is, what the agent asks, its context, checks, reviews, diff, transcript and comments,
 * with the actions it allows. Reloads on every live event (`version`), keeping what is typed in the boxes.
 */
export function ItemDetail({ id, version, boxes, focus, onClose, onDone }: ItemDetailProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pane = useRef<HTMLElement | null>(null);
  const ready = loaded !== null && loaded.details.id === id;

  useEffect(() => {
    if (focus === null || !ready) return;
    pane.current?.querySelector(`[data-section="${focus.section}"]`)?.scrollIntoView({ block: 'start' });
  }, [focus, ready]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger (a live event)
  useEffect(() => {
    let stale = false;
    const load = async () => {
      const [details, runs, conversations] = await Promise.all([
        api.details(id),
        api.itemRuns(id),
        api.conversations(id),
      ]);
      const withLog = runs.find((run) => run.logFilePath !== null);
      const [diff, transcript, checks] = await Promise.all([
        details.revision === null ? null : api.diff(id).catch(messageOf),
        withLog === undefined ? null : api.transcript(withLog.sessionID).catch(messageOf),
        details.revision === null ? null : api.checks(id).catch(messageOf),
      ]);
      if (!stale) {
        setLoaded({ details, runs, conversations, diff, transcript, checks });
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
    <aside class="detail" data-testid="detail" aria-label={`item ${id}`} ref={pane}>
      <button type="button" class="close" onClick={onClose} title="Esc">
        ✕
      </button>
      {error !== null && (
        <p class="error">
          cannot load #{id}: {error}
        </p>
      )}
      {!ready ? (
        <p class="dim">loading #{id}…</p>
      ) : (
        // Keyed by item: line comments drafted on one item's diff never go with another's verdict.
        <DetailBody key={id} loaded={loaded} boxes={boxes} act={act} />
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
  const { details, runs, conversations, diff, transcript, checks } = loaded;
  const { id } = details;
  const questions = [...details.comments]
    .reverse()
    .find((comment) => comment.body.includes(QUESTIONS_COMMENT_MARKER));
  const waiting = details.status === 'waiting-for-input';
  const engine = (action: EngineAction) => () => act(action, () => api.engineAction(id, action));
  const [drafts, setDrafts] = useState<LineComment[]>([]);
  const canReview = reviewable(details);
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
            Retry <kbd>d</kbd>
          </button>
        )}
        {(runs[0]?.status === 'running' || runs[0]?.status === 'requested') && (
          <button type="button" onClick={engine('cancel')}>
            Cancel <kbd>x</kbd>
          </button>
        )}
        {(details.status === 'blocked' || details.status === 'needs-refinement') && (
          <button type="button" onClick={engine('unblock')}>
            Unblock <kbd>u</kbd>
          </button>
        )}
        {details.status === 'approved' && (
          <button type="button" onClick={engine('merge')}>
            Merge <kbd>m</kbd>
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
          <div data-section="checks">
            <p data-testid="checks">
              checks:{' '}
              <span class={`checks checks-${details.revision.pipeline?.status ?? 'unknown'}`}>
                {details.revision.pipeline?.status ?? 'unknown'}
              </span>
              {details.revision.pipeline?.reason ? ` — ${details.revision.pipeline.reason}` : ''}
            </p>
            <ChecksLog checks={checks} />
          </div>
          {canReview && (
            <ReviewForm
              drafts={drafts}
              register={(element) => {
                boxes.review = element;
              }}
              onSubmit={async (verdict, text) => {
                const sent = await act(VERDICT_LABELS[verdict].toLowerCase(), () =>
                  api.review(id, verdict, text, drafts),
                );
                if (sent) setDrafts([]);
                return sent;
              }}
            />
          )}
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
          <h3 data-section="diff">Diff</h3>
          {typeof diff === 'string' ? (
            <p class="error">{diff}</p>
          ) : diff === null ? null : (
            <DiffView
              diff={diff}
              drafts={drafts}
              onAdd={canReview ? (comment) => setDrafts((previous) => [...previous, comment]) : null}
              onRemove={(index) => setDrafts((previous) => previous.filter((_, at) => at !== index))}
            />
          )}
        </section>
      )}

      {conversations.length > 0 && (
        <section data-testid="item-conversations">
          <h3>Conversations with other agents</h3>
          <ConversationList conversations={conversations} />
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
            <h3 data-section="transcript">Transcript</h3>
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

/**
 * Whether a human may give a verdict here (the API decides; this only hides a form it would refuse): an
 * open revision on an item no implementor is reworking.
 */
function reviewable(details: WorkItemDetails): boolean {
  return (
    details.revision !== null &&
    details.revision.state === 'open' &&
    details.status !== 'closed' &&
    details.status !== 'in-progress'
  );
}

/** The checks log's last lines (as the terminal dashboard's `c`), or why there is none. */
function ChecksLog({ checks }: { checks: ChecksResponse | string | null }) {
  if (checks === null) return null;
  if (typeof checks === 'string') return <p class="error">checks log: {checks}</p>;
  if (checks.log === null) {
    return (
      <p class="dim" data-testid="checks-log">
        {checks.command === null
          ? 'no checks command configured: every head passes'
          : checks.status === 'pending'
            ? `checks log: none yet (${checks.command})`
            : 'checks log: not readable'}
      </p>
    );
  }
  return (
    <>
      <p class="dim">
        {checks.command ?? ''}
        {checks.log.truncated ? ' · the last lines' : ''}
      </p>
      <pre class="checks-log" data-testid="checks-log">
        {checks.log.text}
      </pre>
    </>
  );
}
