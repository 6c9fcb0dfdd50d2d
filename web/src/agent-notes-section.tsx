import type { WorkItemDetails } from './api-client.ts';

type NoteRecord = NonNullable<WorkItemDetails['decisions']>[number];

/** `[implementor · claude]`, as `flotilla work show` names who recorded a note. */
function sourceOf(note: NoteRecord): string {
  return `[${note.role}${note.runtime === null ? '' : ` · ${note.runtime}`}]`;
}

function NoteList({ notes, testID }: { notes: readonly NoteRecord[]; testID: string }) {
  return (
    <ul class="context" data-testid={testID}>
      {notes.map((note) => (
        <li key={note.id}>
          <span class="dim">
            {sourceOf(note)} · {new Date(note.createdAt).toLocaleString()}
          </span>
          <pre class="text">{note.text}</pre>
          {note.why !== null && <pre class="text dim">why: {note.why}</pre>}
        </li>
      ))}
    </ul>
  );
}

/**
 * What agents recorded on the item while they worked (issue #28 §2): their decisions with the reason
 * (`record_decision`) and the questions they logged for a human without stopping (`log_question`), oldest
 * first, as `flotilla work show` lists them. Everything agents wrote stays text.
 */
export function AgentNotesSection({ details }: { details: WorkItemDetails }) {
  const decisions = details.decisions ?? [];
  const questions = details.questions ?? [];
  if (decisions.length === 0 && questions.length === 0) return null;
  return (
    <section data-testid="item-notes">
      {decisions.length > 0 && (
        <>
          <h3>Decisions agents recorded</h3>
          <NoteList notes={decisions} testID="item-decisions" />
        </>
      )}
      {questions.length > 0 && (
        <>
          <h3>Questions agents logged</h3>
          <NoteList notes={questions} testID="item-logged-questions" />
        </>
      )}
    </section>
  );
}
