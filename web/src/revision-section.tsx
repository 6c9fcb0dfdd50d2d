import {
  api,
  type ChecksResponse,
  type DiffResponse,
  type LineComment,
  type WorkItemDetails,
} from './api-client.ts';
import { DiffView } from './diff-view.tsx';
import { ReviewForm, VERDICT_LABELS } from './review-form.tsx';

type Revision = NonNullable<WorkItemDetails['revision']>;

interface RevisionSectionProps {
  details: WorkItemDetails;
  revision: Revision;
  checks: ChecksResponse | string | null;
  diff: DiffResponse | string | null;
  /** Line comments drafted on the diff, sent with the next verdict. */
  drafts: LineComment[];
  setDrafts(update: (previous: LineComment[]) => LineComment[]): void;
  registerReview(element: HTMLTextAreaElement | null): void;
  act(what: string, run: () => Promise<unknown>): Promise<boolean>;
}

/** An item's revision: its checks and their log, the review form, the reviews so far and the diff. */
export function RevisionSection(props: RevisionSectionProps) {
  const { details, revision, checks, diff, drafts, setDrafts, act } = props;
  const { id } = details;
  const canReview = reviewable(details);
  return (
    <section>
      <h3>
        Revision {revision.headRef} ({revision.state})
      </h3>
      <div data-section="checks">
        <p data-testid="checks">
          checks:{' '}
          <span class={`checks checks-${revision.pipeline?.status ?? 'unknown'}`}>
            {revision.pipeline?.status ?? 'unknown'}
          </span>
          {revision.pipeline?.reason ? ` — ${revision.pipeline.reason}` : ''}
        </p>
        <ChecksLog checks={checks} />
      </div>
      {canReview && (
        <ReviewForm
          drafts={drafts}
          register={props.registerReview}
          onSubmit={async (verdict, text) => {
            const sent = await act(VERDICT_LABELS[verdict].toLowerCase(), () =>
              api.review(id, verdict, text, drafts),
            );
            if (sent) setDrafts(() => []);
            return sent;
          }}
        />
      )}
      <ReviewList reviews={revision.reviews} />
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
  );
}

/** The reviews given so far, each with its line comments. */
function ReviewList({ reviews }: { reviews: Revision['reviews'] }) {
  return (
    <>
      {reviews.map((review) => (
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
    </>
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
