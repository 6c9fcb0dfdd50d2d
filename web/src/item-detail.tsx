import { useEffect, useRef, useState } from 'preact/hooks';
import { ANSWER_COMMENT_MARKER, QUESTIONS_COMMENT_MARKER } from '../../src/domain/agent-questions.ts';
import { AgentNotesSection } from './agent-notes-section.tsx';
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
import { RevisionSection } from './revision-section.tsx';
import { RunsSection } from './runs-section.tsx';
import { TextForm } from './text-form.tsx';

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

type Act = (what: string, run: () => Promise<unknown>) => Promise<boolean>;

interface DetailBodyProps {
  loaded: Loaded;
  boxes: ItemDetailProps['boxes'];
  act: Act;
}

function DetailBody({ loaded, boxes, act }: DetailBodyProps) {
  const { details, runs, conversations, diff, transcript, checks } = loaded;
  const [drafts, setDrafts] = useState<LineComment[]>([]);
  return (
    <>
      <DetailHeading details={details} />
      <DetailActions details={details} runs={runs} act={act} />
      <QuestionsSection details={details} boxes={boxes} act={act} />

      <section>
        <h3>Description</h3>
        <pre class="text">{details.body.trim() === '' ? '(no description)' : details.body}</pre>
      </section>

      <TaskContextSection details={details} />
      <AgentNotesSection details={details} />

      {details.revision !== null && (
        <RevisionSection
          details={details}
          revision={details.revision}
          checks={checks}
          diff={diff}
          drafts={drafts}
          setDrafts={setDrafts}
          registerReview={(element) => {
            boxes.review = element;
          }}
          act={act}
        />
      )}

      {conversations.length > 0 && (
        <section data-testid="item-conversations">
          <h3>Conversations with other agents</h3>
          <ConversationList conversations={conversations} />
        </section>
      )}

      <RunsSection runs={runs} transcript={transcript} />
      <CommentsSection details={details} boxes={boxes} act={act} />
    </>
  );
}

interface SectionProps {
  details: WorkItemDetails;
  boxes: DetailBoxes;
  act: Act;
}

/** The title, status, kind, priority, labels and what the item waits for. */
function DetailHeading({ details }: { details: WorkItemDetails }) {
  return (
    <>
      <h2>
        #{details.id} {details.title}
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
    </>
  );
}

/** The buttons for what the item's status and latest run allow. */
function DetailActions({ details, runs, act }: { details: WorkItemDetails; runs: RunSummary[]; act: Act }) {
  const { id } = details;
  const engine = (action: EngineAction) => () => act(action, () => api.engineAction(id, action));
  return (
    <div class="actions">
      {(details.status === 'pending' || details.status === 'blocked') && (
        <button type="button" data-action="dispatch" onClick={() => act('dispatch', () => api.dispatch(id))}>
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
  );
}

/** The agent's latest questions, with the answer box while it waits. */
function QuestionsSection({ details, boxes, act }: SectionProps) {
  const questions = [...details.comments]
    .reverse()
    .find((comment) => comment.body.includes(QUESTIONS_COMMENT_MARKER));
  if (questions === undefined) return null;
  const waiting = details.status === 'waiting-for-input';
  return (
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
          onSubmit={(text) => act('answer', () => api.answer(details.id, text))}
        />
      )}
    </section>
  );
}

/** What earlier runs on the item left for the next one. */
function TaskContextSection({ details }: { details: WorkItemDetails }) {
  if (details.taskContext === undefined || details.taskContext.length === 0) return null;
  return (
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
  );
}

/** The item's comments, markers stripped, and the comment box. */
function CommentsSection({ details, boxes, act }: SectionProps) {
  return (
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
        onSubmit={(text) => act('comment', () => api.comment(details.id, text))}
      />
    </section>
  );
}
